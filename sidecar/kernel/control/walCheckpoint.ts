// The WAL checkpoint after a large startup repair, off the kernel's thread (issue 16). A crash with
// many runs in flight leaves a repair that rewrites most of the ledger's pages: SQLite's automatic
// checkpoint would then copy all of them from the WAL into the database file inside the repair's
// COMMIT, on the kernel's only thread, before it can serve anyone (a quarter of the repair's time at
// 100k runs). The COMMIT is durable without it: synchronous=FULL has synced the WAL. So a large repair
// commits with the automatic checkpoint off, and a second connection on a worker thread copies the
// pages while the kernel starts. Nothing depends on it finishing: until it does, readers find the
// pages in the WAL, and a kernel killed meanwhile loses nothing (a checkpoint is restartable); the
// connection's own automatic checkpoint takes over at its next commit if this one fails.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Rows a repair must change before its checkpoint moves off the kernel's thread. */
export const BACKGROUND_CHECKPOINT_ROWS = 10_000;

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
try {
  parentPort.postMessage(db.pragma("wal_checkpoint(PASSIVE)")[0]);
} finally {
  db.close();
}
`;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Starts a PASSIVE checkpoint of `file` on a worker thread with its own connection; never waits for
 * a lock and never keeps the process alive. Resolves with SQLite's counts, or null if it failed.
 */
export function checkpointInBackground(file: string): Promise<CheckpointResult | null> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve("better-sqlite3");
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    } catch {
      resolve(null);
      return;
    }
    worker.unref();
    let result: CheckpointResult | null = null;
    worker.on("message", (r: CheckpointResult) => {
      result = r;
    });
    worker.on("error", () => resolve(null));
    worker.on("exit", () => resolve(result));
  });
}

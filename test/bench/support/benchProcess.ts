// What every benchmark does around its figures: run with the kernel's one libuv worker, and write its
// results where `npm run bench` (test/bench/run.mjs) gathers them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

/**
 * llama.cpp's decode runs on libuv workers and the kernel runs with one (kernelLauncher.ts): a bench
 * started with another pool size runs itself again with one, before anything is loaded, and exits
 * with that run's status.
 */
export function withOneLibuvWorker(): void {
  if (process.env.UV_THREADPOOL_SIZE === "1") return;
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, UV_THREADPOOL_SIZE: "1" },
  });
  process.exit(r.status ?? 1);
}

/** One figure of a bench's `rows`, as test/bench/run.mjs reads them (its header says what each field means). */
export interface BenchRow {
  name: string;
  ours: number;
  anchor: number | null;
  ratio: number | null;
  unit: string;
  anchorName: string | null;
  target?: string;
}

/**
 * Writes test/bench/results/NAME.json (its `rows` are what the summary table shows), headed by the
 * bench's name, the runtime and the time; the path written.
 */
export function writeBenchResults(name: string, results: object): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `${name}.json`);
  const head = { bench: name, node: process.version, platform: `${process.platform}-${process.arch}`, at: new Date().toISOString() };
  fs.writeFileSync(out, `${JSON.stringify({ ...head, ...results }, null, 2)}\n`);
  return out;
}

// One owner per journal (issue 12, item 1). The first kernel for a journal takes flock(LOCK_EX) on
// a lock file beside it and holds it for its life; the OS releases it on any death, kill -9
// included, so a stale owner can never block the next one. Node opens files O_CLOEXEC, so a tool's
// child process (a shell left running) never inherits the lock.
import fs from "node:fs";
import { createRequire } from "node:module";
import type Koffi from "koffi";
import { journalLockPath } from "../../shared/node/paths.js";
import { openPrivateFile, type RepairLog } from "../../shared/node/privateFiles.js";

const LOCK_EX = 2;
const LOCK_NB = 4;
/** EWOULDBLOCK: Linux 11, macOS 35. */
const WOULD_BLOCK = process.platform === "darwin" ? 35 : 11;

/** alias: the journal file itself is locked by a kernel that opened it by another name (a hard link or symlink). */
export type LockOutcome =
  | { owned: true; lockPath: string; release(): void }
  | { owned: false; lockPath: string; ownerPid: number | null; alias?: true };

let flockFn: ((fd: number, op: number) => number) | undefined;
let errnoFn: (() => number) | undefined;

function flock(fd: number, op: number): { ok: true } | { ok: false; errno: number } {
  if (!flockFn) {
    const koffi = createRequire(import.meta.url)("koffi") as typeof Koffi;
    const libc = koffi.load(process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6");
    flockFn = libc.func("int flock(int, int)") as (fd: number, op: number) => number;
    errnoFn = () => koffi.errno();
  }
  return flockFn(fd, op) === 0 ? { ok: true } : { ok: false, errno: errnoFn!() };
}

/** The pid the owner wrote into the lock file, or null while it has not written it yet. */
export function readLockOwner(lockPath: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the journal's lock without waiting. Throws only when the lock cannot be tried at all. */
export function acquireJournalLock(journalPath: string, log?: RepairLog): LockOutcome {
  const lockPath = journalLockPath(journalPath);
  const fd = openPrivateFile(lockPath, log);
  const r = flock(fd, LOCK_EX | LOCK_NB);
  if (!r.ok) {
    fs.closeSync(fd);
    if (r.errno !== WOULD_BLOCK)
      throw new Error(
        `cannot lock ${lockPath}: flock failed with errno ${r.errno}; check the file system supports locks (a local disk does)`,
      );
    return { owned: false, lockPath, ownerPid: readLockOwner(lockPath) };
  }
  // issue 24, item 6: the lock file is named by the path, so the journal file is locked too: a hard
  // link or symlink to it (another path, the same inode) meets this owner instead of becoming a second.
  // Read-only suffices for flock; the kernel has already made the file private (main.ts).
  const journalFd = fs.openSync(journalPath, fs.constants.O_RDONLY | fs.constants.O_CREAT, 0o600);
  const own = flock(journalFd, LOCK_EX | LOCK_NB);
  if (!own.ok) {
    fs.closeSync(journalFd);
    fs.closeSync(fd);
    if (own.errno !== WOULD_BLOCK) throw new Error(`cannot lock ${journalPath}: flock failed with errno ${own.errno}`);
    return { owned: false, lockPath: journalPath, ownerPid: null, alias: true };
  }
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, `${process.pid}\n`, 0);
  return {
    owned: true,
    lockPath,
    // Closing the descriptors releases the flocks; the file stays (removing it would race a new owner).
    // The journal's own descriptor closes after SQLite's connection (the lock's hook runs last).
    release: () => {
      fs.closeSync(journalFd);
      fs.closeSync(fd);
    },
  };
}

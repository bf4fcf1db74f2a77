// Hearth's data is private (issue 11, item 17): conversations, tool inputs and outputs and the KV
// state that encodes them. Folders are created 0700 and files 0600 from the start (a mode at
// mkdir/open, never a chmod after, so there is no moment when others can read them), and existing
// ones are checked at open: wider modes of our own files are repaired, foreign owners refused.
import fs from "node:fs";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export class PrivacyError extends Error {}

/** Reports a repair (a mode narrowed) so the caller can log it. */
export type RepairLog = (line: string) => void;

function checkOwnerAndMode(target: string, st: fs.Stats, wanted: number, repair: () => void, log: RepairLog): void {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new PrivacyError(
      `refused: ${target} belongs to user id ${st.uid}, not to you (${uid}); Hearth keeps its data in files only you ` +
        `own. Move it aside or set HEARTH_HOME to a folder of your own`,
    );
  }
  const mode = st.mode & 0o777;
  if ((mode & ~wanted) === 0) return;
  repair();
  log(`repaired permissions of ${target}: ${mode.toString(8)} → ${wanted.toString(8)} (others could read Hearth's data)`);
}

/** Creates `dir` (and missing parents) 0700, or checks and narrows an existing one. */
export function ensurePrivateDir(dir: string, log: RepairLog = () => {}): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new PrivacyError(`refused: ${dir} is not a folder (a link or a file is in its place); move it aside`);
  checkOwnerAndMode(dir, st, PRIVATE_DIR_MODE, () => fs.chmodSync(dir, PRIVATE_DIR_MODE), log);
}

/**
 * Opens `file` read-write, creating it 0600 when missing; an existing one is checked and narrowed
 * through its descriptor. Returns the open descriptor (the caller closes it).
 */
export function openPrivateFile(file: string, log: RepairLog = () => {}): number {
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  try {
    checkOwnerAndMode(file, fs.fstatSync(fd), PRIVATE_FILE_MODE, () => fs.fchmodSync(fd, PRIVATE_FILE_MODE), log);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** `openPrivateFile` for a file that only has to exist privately (e.g. before SQLite opens it). */
export function ensurePrivateFile(file: string, log: RepairLog = () => {}): void {
  fs.closeSync(openPrivateFile(file, log));
}

/** Checks and narrows an existing file; a missing one is fine (e.g. a journal's -wal before first write). */
export function checkPrivateFileIfPresent(file: string, log: RepairLog = () => {}): void {
  if (fs.existsSync(file)) ensurePrivateFile(file, log);
}

/** Writes `data` to a new 0600 file beside `file` and renames it into place: readers never see it partial. */
export function writePrivateFile(file: string, data: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, data, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  fs.renameSync(temp, file);
}

// Child process for the race tests: swaps a workspace entry with a symlink pointing outside as
// fast as it can until killed, or until its parent is gone (a killed test process kills no child of
// its own: swapperOrphan.test.ts). Each step may fail when the tool's own write intervenes.
import fs from "node:fs";

const [, , mode, entry, outsideTarget] = process.argv as [string, string, "dir" | "file", string, string];
const keep = `${entry}.keep`;
const step = (f: () => void): void => {
  try {
    f();
  } catch {
    // ENOENT/EEXIST when the other side moved first: keep racing
  }
};
// Orphaned, a process is handed to another parent: the loop never yields, so it asks now and then.
const parent = process.ppid;
process.stdout.write("ready\n");
for (let i = 0; ; i++) {
  if (i % 256 === 0 && process.ppid !== parent) process.exit(0);
  step(() => fs.renameSync(entry, keep));
  // A write that landed while the name was free may have created it again (write_file makes missing
  // folders): with both names taken every later step would fail and the race would stall for good.
  if (fs.existsSync(keep)) step(() => fs.rmSync(entry, { recursive: true, force: true }));
  step(() => fs.symlinkSync(outsideTarget, entry, mode === "dir" ? "dir" : "file"));
  step(() => fs.unlinkSync(entry));
  step(() => fs.renameSync(keep, entry));
}

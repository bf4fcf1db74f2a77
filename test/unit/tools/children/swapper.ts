// Child process for the race tests: swaps a workspace entry with a symlink pointing outside as
// fast as it can until killed. Each step may fail when the tool's own write intervenes.
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
process.stdout.write("ready\n");
for (;;) {
  step(() => fs.renameSync(entry, keep));
  step(() => fs.symlinkSync(outsideTarget, entry, mode === "dir" ? "dir" : "file"));
  step(() => fs.unlinkSync(entry));
  step(() => fs.renameSync(keep, entry));
}

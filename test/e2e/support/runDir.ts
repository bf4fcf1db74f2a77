// Where a scenario leaves what a person needs after a run: screenshots and logs, under
// test/e2e/.runs/ (git-ignored). Only the newest few runs are kept.
import fs from "node:fs";
import path from "node:path";

const RUNS = path.resolve("test/e2e/.runs");
const KEEP = 6;

export function newRunDir(scenario: string): string {
  fs.mkdirSync(RUNS, { recursive: true });
  const old = fs
    .readdirSync(RUNS)
    .filter((d) => d.startsWith(`${scenario}-`))
    .sort();
  for (const d of old.slice(0, Math.max(0, old.length - (KEEP - 1)))) fs.rmSync(path.join(RUNS, d), { recursive: true, force: true });
  const dir = path.join(RUNS, `${scenario}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Elapsed-time marks for the run's report. */
export function stopwatch(): { mark(name: string): void; marks: Record<string, number> } {
  const t0 = Date.now();
  const marks: Record<string, number> = {};
  return {
    marks,
    mark: (name) => {
      marks[name] = (Date.now() - t0) / 1000;
    },
  };
}

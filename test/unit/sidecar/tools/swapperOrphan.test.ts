// The race tests' swapper (children/swapper.ts) spins for ever until killed; a test process that is
// itself killed (a runner's per-file bound, a mutation run's bail) never kills it, and an orphaned
// swapper then burns a core until the machine restarts (seen: a dozen of them after a Stryker run).
// No test may leave a process behind: the swapper ends once its parent is gone.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { alive } from "../../../support/cliProcess.js";

const SWAPPER = path.join(path.dirname(fileURLToPath(import.meta.url)), "children", "swapper.ts");

test("a swapper whose parent was killed exits on its own", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-swapper-orphan-"));
  fs.mkdirSync(path.join(dir, "entry"));
  // A parent that starts the swapper as the race tests do, says its pid once it races, then waits.
  const parentScript = `
    const { spawn } = require("node:child_process");
    const c = spawn(process.execPath, ["--import", "tsx", ${JSON.stringify(SWAPPER)}, "dir", ${JSON.stringify(path.join(dir, "entry"))}, "/"], { stdio: ["ignore", "pipe", "inherit"] });
    c.stdout.once("data", () => process.stdout.write(String(c.pid) + "\\n"));
    setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ["-e", parentScript], { stdio: ["ignore", "pipe", "inherit"] });
  const swapperPid = await new Promise<number>((resolve, reject) => {
    parent.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    parent.once("exit", (code) => reject(new Error(`the parent exited early (${code})`)));
  });
  assert.ok(alive(swapperPid));
  parent.kill("SIGKILL");
  const deadline = Date.now() + 10_000;
  while (alive(swapperPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const orphaned = alive(swapperPid);
  if (orphaned) process.kill(swapperPid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(orphaned, false, "the swapper outlived its parent by 10 s");
});

// Check-then-use races (harness #9, #17): a child process swaps workspace entries for symlinks
// that point outside, thousands of times, while the tools read and write through them. The
// descriptor walk must never read or write outside, whatever the interleaving.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { RESOLVERS, suiteSandbox } from "./hostileSupport.js";

const SWAPPER = path.join(path.dirname(fileURLToPath(import.meta.url)), "children", "swapper.ts");

async function startSwapper(mode: "dir" | "file", entry: string, target: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SWAPPER, mode, entry, target], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`swapper exited early (${code})`)));
  });
  return child;
}

/**
 * Runs at least `min` iterations and keeps going (up to 50×, or 30 s) until the race has hit at least
 * once: on a loaded machine the swapper can be descheduled through a whole short run (a clean-clone
 * run once went 4,000 writes without a hit).
 */
async function raceUntilHit(min: number, hits: () => number, step: (i: number) => Promise<void>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (let i = 0; i < min * 50; i++) {
    if (i >= min && (hits() > 0 || Date.now() > deadline)) return;
    await step(i);
  }
}

/**
 * Kills the swapper and puts its entry back: killed mid-swap it can leave the workspace entry as a
 * symlink to the outside, which the next test's swapper would then follow (a test artefact, not a
 * tool escape).
 */
async function stop(child: ChildProcess, entry: string): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
  if (!fs.existsSync(`${entry}.keep`)) return;
  // The original sits in .keep; whatever holds the name now (the swapper's symlink, or a folder a
  // write created inside the workspace while the name was free) gives way to it.
  fs.rmSync(entry, { recursive: true, force: true });
  fs.renameSync(`${entry}.keep`, entry);
}

/**
 * Races `attempt` (a tool call; true when it succeeded) against a swapper that flips `entry` to a
 * symlink to `target`, until the race has hit; asserts it did, and restores `entry` afterwards.
 */
async function underRace(
  mode: "dir" | "file",
  entry: string,
  target: string,
  min: number,
  attempt: (i: number) => Promise<boolean>,
): Promise<void> {
  const swapper = await startSwapper(mode, entry, target);
  const seen = { ok: 0, refused: 0 };
  try {
    await raceUntilHit(
      min,
      () => seen.refused,
      async (i) => {
        if (await attempt(i)) seen.ok++;
        else seen.refused++;
      },
    );
  } finally {
    await stop(swapper, entry);
  }
  assert.ok(seen.refused > 0, `the race never hit (${JSON.stringify(seen)})`);
}

for (const resolver of RESOLVERS) {
  describe(`symlink swapped between check and use, ${resolver} resolver (harness #9, #17)`, () => {
    const s = suiteSandbox(resolver);

    test("a directory swapped for a symlink mid-path: 2000 reads never read outside (harness #9)", async () => {
      await underRace("dir", path.join(s().ws, "dir"), path.join(s().outside, "dir"), 2000, async () => {
        const r = await s().call("read_file", { path: "dir/f.txt" }); // asserts no secret in output
        if (r.ok) assert.equal(r.output, "INSIDE\n");
        return r.ok;
      });
    });

    test("the last component swapped for a symlink: 2000 reads never read outside (harness #9)", async () => {
      await underRace("file", path.join(s().ws, "a.txt"), path.join(s().outside, "secret.txt"), 2000, async () => {
        const r = await s().call("read_file", { path: "a.txt" });
        if (r.ok) assert.equal(r.output, "alpha\nbeta\ngamma\n");
        return r.ok;
      });
    });

    test("a directory swapped for a symlink mid-path: 400 writes never write outside (harness #17)", async () => {
      await underRace(
        "dir",
        path.join(s().ws, "dir"),
        path.join(s().outside, "dir"),
        400,
        async (i) => (await s().call("write_file", { path: "dir/f.txt", content: `INSIDE ${i}\n` })).ok,
      );
      s().assertOutsideUntouched();
    });

    test("the target swapped for a symlink: 400 writes never write outside (harness #17)", async () => {
      await underRace(
        "file",
        path.join(s().ws, "dir", "f.txt"),
        path.join(s().outside, "secret.txt"),
        400,
        async (i) => (await s().call("write_file", { path: "dir/f.txt", content: `INSIDE ${i}\n` })).ok,
      );
      s().assertOutsideUntouched();
    });
  });
}

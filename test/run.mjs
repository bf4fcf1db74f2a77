// Runs the test suites with node's built-in runner (TypeScript through tsx).
// usage: node test/run.mjs [unit|integration|e2e ...]   (no argument: all suites)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ALL = ["unit", "integration", "e2e"];
const suites = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const s of suites) if (!ALL.includes(s)) throw new Error(`unknown suite ${s}; choose from ${ALL.join(", ")}`);

function collect(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith(".") || e.name === "node_modules" ? [] : collect(p);
    return e.name.endsWith(".test.ts") ? [p] : [];
  });
}

// The e2e suite provisions its own tools (cached outside the clone; a no-op once present), so the
// README's test command needs no set-up step on a fresh machine (issue 10, item 7).
if (suites.includes("e2e")) {
  const provision = spawnSync("bash", ["test/e2e/provision.sh"], { stdio: "inherit" });
  if (provision.status !== 0) process.exit(provision.status ?? 1);
}

// The openai adapter's integration tests run against llama.cpp's own server, built offline from the
// source node-llama-cpp bundles into a cache outside the clone (issue 16, item 4): ~10 minutes on two
// cores the first time, a no-op once built.
if (suites.includes("integration")) {
  const built = spawnSync("bash", ["test/support/buildLlamaTools.sh", "llama-server"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// Every file's process loads the exit guard: a file that runs past its bound, or whose process outlives
// its tests (a leaked handle), fails by name instead of holding the suite (issue 23, item 2).
const EXIT_GUARD = path.resolve("test/support/exitGuard.mjs");

/** Runs one node --test invocation; its exit status. */
function run(files, concurrency) {
  const args = ["--import", "tsx", "--import", EXIT_GUARD, "--test", `--test-concurrency=${concurrency}`, ...files];
  const result = spawnSync(process.execPath, args, {
    stdio: "inherit",
    env: { ...process.env, HEARTH_TEST: "1" },
  });
  return result.status ?? 1;
}

const fast = suites
  .filter((s) => s !== "e2e")
  .flatMap((s) => collect(path.join("test", s)))
  .sort();
const e2e = suites.includes("e2e") ? collect(path.join("test", "e2e")).sort() : [];
if (fast.length + e2e.length === 0) throw new Error(`no test files in ${suites.join(", ")}`);
// Two cores: unit and integration files two at a time (integration files start real processes);
// each e2e file drives a whole workbench, a browser and a kernel, so one at a time: two at once
// left a busy machine's code lenses and webviews behind their clicks.
const statuses = [fast.length ? run(fast, 2) : 0, e2e.length ? run(e2e, 1) : 0];
process.exit(Math.max(...statuses));

// `npm run bench`: runs every benchmark under test/bench/ one after another (they share two cores,
// so never in parallel). Each prints its own table of ratios against an anchor measured in the same
// run and writes test/bench/results/<name>.json. usage: node test/bench/run.mjs [name ...]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.join("test", "bench");
const wanted = process.argv.slice(2);
const benches = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (benches.length === 0) throw new Error(`no benchmark matches ${wanted.join(", ")}`);
let failed = 0;
for (const name of benches) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, `${name}.ts`)], {
    stdio: "inherit",
    env: { ...process.env, UV_THREADPOOL_SIZE: "1" },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

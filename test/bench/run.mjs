// `npm run bench`: runs every benchmark under test/bench/ one after another (they share the cores,
// so never in parallel), then gathers their figures into one table of ratios.
// usage: node test/bench/run.mjs [--quick] [--timeout=SECONDS] [name ...]   (a bench still running after
// --timeout, 2700 s unless given, is stopped and shows as failed)
//
// Each bench writes test/bench/results/<name>.json with a `rows` array, one per figure:
//   { name, ours, anchor, ratio, unit, anchorName, target? }
// - ours, anchor: numbers in `unit`; ratio = ours / anchor (null when there is no anchor).
// - anchorName: what the anchor is. anchor null with an anchorName means the anchor was not measured
//   (not built, not available here): the table says so. anchorName null means an absolute figure
//   with no anchor by design (a target in ms, say).
// - target (optional): "<= 1000 ms" or ">= 0.9x" (also ≤ ≥ ×): "x"/"×" compares the ratio, a unit
//   compares `ours` (ms and s convert); or { cmp: "<=" | ">=", value, of: "ratio" | "ours" }.
// After the last bench this reads every results/*.json, prints one markdown table and writes
// results/summary.json and results/summary.md with the machine and the command. A bench that fails,
// or writes no rows, shows as such; a results file left by an earlier run is marked with its date.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = path.join("test", "bench");
const resultsDir = path.join(dir, "results");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const wanted = args.filter((a) => !a.startsWith("--"));
const timeoutArg = args.find((a) => a.startsWith("--timeout="));
const timeoutS = timeoutArg ? Number(timeoutArg.slice("--timeout=".length)) : 2700;
if (!(timeoutS > 0)) throw new Error(`--timeout wants seconds, got ${timeoutArg}`);
const benches = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (benches.length === 0) throw new Error(`no benchmark matches ${wanted.join(", ")}`);

const machine = {
  cpu: os.cpus()[0]?.model.trim() ?? "unknown",
  cores: os.cpus().length,
  ramGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  loadavgAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
};
const command =
  process.env.npm_lifecycle_event === "bench"
    ? `npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}`
    : `node test/bench/run.mjs${args.length ? ` ${args.join(" ")}` : ""}`;
const startedAt = new Date();
const git = (...a) => spawnSync("git", a, { encoding: "utf8" }).stdout?.trim() || null;
const commit = git("rev-parse", "--short", "HEAD");

fs.mkdirSync(resultsDir, { recursive: true });
/** @type {Record<string, { status: number | null; seconds: number; timedOut: boolean; from: number; to: number }>} */
const runs = {};
for (const name of benches) {
  console.log(`\n=== ${name} ===`);
  // A bench that fails must not leave an earlier run's figures behind as if they were this run's.
  fs.rmSync(path.join(resultsDir, `${name}.json`), { force: true });
  const t0 = performance.now();
  const from = Date.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, `${name}.ts`), ...(quick ? ["--quick"] : [])], {
    stdio: "inherit",
    env: { ...process.env, UV_THREADPOOL_SIZE: "1" },
    timeout: timeoutS * 1000,
  });
  const timedOut = /** @type {NodeJS.ErrnoException | undefined} */ (r.error)?.code === "ETIMEDOUT";
  const status = r.status ?? (r.signal ? 128 : 1);
  runs[name] = { status, seconds: Math.round((performance.now() - t0) / 1000), timedOut, from, to: Date.now() };
  // A failed bench leaves its failure in place of figures, so a later summary still shows it.
  const file = path.join(resultsDir, `${name}.json`);
  if (status !== 0 && !fs.existsSync(file))
    fs.writeFileSync(file, `${JSON.stringify({ bench: name, date: new Date(from).toISOString(), failed: runs[name] }, null, 2)}\n`);
}

/** @param {unknown} t @returns {{ cmp: "<=" | ">="; value: number; of: "ratio" | "ours"; unit: string | null; text: string } | null} */
function parseTarget(t) {
  if (t === undefined || t === null) return null;
  if (typeof t === "object") {
    const o = /** @type {{ cmp: "<=" | ">="; value: number; of?: "ratio" | "ours"; unit?: string }} */ (t);
    const of = o.of ?? "ratio";
    const text = `${o.cmp === "<=" ? "≤" : "≥"} ${o.value}${of === "ratio" ? "×" : ` ${o.unit ?? ""}`.trimEnd()}`;
    return { cmp: o.cmp, value: o.value, of, unit: o.unit ?? null, text };
  }
  const m = /^\s*(<=|>=|≤|≥)\s*([0-9.]+)\s*(×|x|[A-Za-zµ/%]+)?\s*$/.exec(String(t));
  if (!m) return { cmp: "<=", value: Number.NaN, of: "ours", unit: null, text: String(t) };
  const cmp = m[1] === "<=" || m[1] === "≤" ? "<=" : ">=";
  const unit = m[3] ?? null;
  const of = unit === "x" || unit === "×" ? "ratio" : "ours";
  const text = `${cmp === "<=" ? "≤" : "≥"} ${m[2]}${of === "ratio" ? "×" : unit ? ` ${unit}` : ""}`;
  return { cmp, value: Number(m[2]), of, unit: of === "ratio" ? null : unit, text };
}

const toMs = { ms: 1, s: 1000, µs: 0.001, us: 0.001 };
/** @returns {boolean | null} null when it cannot be judged (no anchor, unknown unit) */
function met(row, target) {
  if (!target || Number.isNaN(target.value)) return null;
  let value = target.of === "ratio" ? row.ratio : row.ours;
  let bound = target.value;
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if (target.of === "ours" && target.unit && target.unit !== row.unit) {
    if (!(target.unit in toMs) || !(row.unit in toMs)) return null;
    value *= toMs[row.unit];
    bound *= toMs[target.unit];
  }
  return target.cmp === "<=" ? value <= bound : value >= bound;
}

const num = (v) => {
  if (typeof v !== "number" || !Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? String(Math.round(v)) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toPrecision(2);
};

/** Every results/*.json: this run's, and earlier runs' marked as such. */
const table = [];
const files = fs
  .readdirSync(resultsDir)
  .filter((f) => f.endsWith(".json") && f !== "summary.json")
  .map((f) => f.slice(0, -5));
const names = [...new Set([...benches, ...files])].sort();
for (const name of names) {
  const run = runs[name];
  const file = path.join(resultsDir, `${name}.json`);
  let json = null;
  if (fs.existsSync(file)) {
    try {
      json = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (e) {
      table.push({ bench: name, figure: `results/${name}.json unreadable: ${e.message}`, problem: "unreadable" });
      continue;
    }
  }
  const mtime = json ? fs.statSync(file).mtimeMs : 0;
  const earlier = run ? null : `earlier run, ${new Date(json?.failed?.from ?? mtime).toISOString().slice(0, 16)}Z`;
  const failed = run && run.status !== 0 ? run : json?.failed;
  if (failed) {
    // Its figures, if a file holds any, were not written by this bench in this run: not shown.
    const why = failed.timedOut ? "stopped after the --timeout" : `exit ${failed.status} after ${failed.seconds} s`;
    table.push({ bench: name, earlier, figure: `FAILED (${why})`, problem: "failed" });
    continue;
  }
  if (json && run && (mtime < run.from - 1000 || mtime > run.to + 1000)) {
    table.push({ bench: name, figure: `results/${name}.json was written outside this run of the bench: not shown`, problem: "stale" });
    continue;
  }
  if (!json) {
    table.push({ bench: name, figure: "wrote no results file", problem: "no results" });
    continue;
  }
  const rows = Array.isArray(json.rows) ? json.rows : null;
  if (!rows || rows.length === 0) {
    table.push({ bench: name, earlier, figure: `no \`rows\` in results/${name}.json`, problem: "no rows" });
    continue;
  }
  for (const row of rows) {
    const target = parseTarget(row.target);
    const anchorMissing = (row.anchor === null || row.anchor === undefined) && Boolean(row.anchorName);
    table.push({
      bench: name,
      earlier,
      figure: row.name,
      ours: row.ours,
      unit: row.unit,
      anchor: row.anchor ?? null,
      anchorName: row.anchorName ?? null,
      anchorMissing,
      ratio: typeof row.ratio === "number" ? row.ratio : null,
      target: target?.text ?? null,
      met: met(row, target),
    });
  }
}

const cell = (s) => String(s).replaceAll("|", "\\|");
const lines = [
  "| benchmark | figure | ours | anchor | ratio | target | met? |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...table.map((r) => {
    const bench = r.earlier ? `${r.bench} (${r.earlier})` : r.bench;
    if (r.problem) return `| ${cell(bench)} | ${cell(r.figure)} | — | — | — | — | ${r.problem} |`;
    const ours = `${num(r.ours)} ${r.unit ?? ""}`.trim();
    const anchor = r.anchorMissing
      ? `missing: ${r.anchorName}`
      : r.anchor === null
        ? "—"
        : `${num(r.anchor)} ${r.unit ?? ""}`.trim() + (r.anchorName ? ` (${r.anchorName})` : "");
    const ratio = r.ratio === null ? "—" : `${Math.abs(r.ratio) >= 0.1 ? r.ratio.toFixed(2) : r.ratio.toPrecision(2)}×`;
    const verdict = r.target === null ? "" : r.met === null ? "unknown" : r.met ? "yes" : "**no**";
    return `| ${cell(bench)} | ${cell(r.figure)} | ${cell(ours)} | ${cell(anchor)} | ${ratio} | ${cell(r.target ?? "")} | ${verdict} |`;
  }),
];
machine.loadavgAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
const when = startedAt.toISOString().replace("T", " ").slice(0, 16);
const header = [
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, ${machine.platform}, Node ${machine.node}.`,
  `Run: ${when} UTC${commit ? ` at ${commit}` : ""}, \`${command}\`, load average ${machine.loadavgAtStart[0]} at start, ${machine.loadavgAtEnd[0]} at end.`,
];
const md = `${header.join("\n")}\n\n${lines.join("\n")}\n`;
console.log(`\n=== summary ===\n${md}`);
const failed = Object.entries(runs).filter(([, r]) => r.status !== 0);
fs.writeFileSync(path.join(resultsDir, "summary.md"), md);
fs.writeFileSync(
  path.join(resultsDir, "summary.json"),
  `${JSON.stringify({ date: startedAt.toISOString(), command, commit, quick, machine, benches: runs, rows: table }, null, 2)}\n`,
);
console.log(`wrote ${path.join(resultsDir, "summary.md")} and summary.json`);
process.exit(failed.length ? 1 : 0);

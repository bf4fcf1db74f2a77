// One call of list_dir and of search_files on a folder of 300,000 empty files (harness #9): the
// longest time the event loop was blocked during the call and the growth of resident memory it
// left, against fs.readdirSync of the same folder (what the tools did before issue 23 item 10).
// run: node --expose-gc --import tsx test/bench/bigFolder.ts [--quick]   (--quick: 30,000 files)
// Writes test/bench/results/bigFolder.json (`rows`, for run.mjs's table).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolContext, ToolProposal } from "../../sidecar/agent/ports/tools.js";
import { AnchoredWorkspace } from "../../sidecar/tools/anchoredFs.js";
import { defaultCeilings } from "../../sidecar/tools/ceilings.js";
import { listDirTool } from "../../sidecar/tools/listDirTool.js";
import { searchFilesTool } from "../../sidecar/tools/searchFilesTool.js";
import { writeBenchResults } from "./support/benchProcess.js";

const FILES = process.argv.includes("--quick") ? 30_000 : 300_000;
const ROUNDS = 3;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Cost {
  blockedMs: number;
  rssGrowthMB: number;
}

/** The longest event-loop stall and the resident-memory growth of one call (worst of ROUNDS). */
async function costOf(fn: () => unknown): Promise<Cost> {
  const worst: Cost = { blockedMs: 0, rssGrowthMB: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    gc();
    await new Promise((res) => setTimeout(res, 20));
    const rssBefore = process.memoryUsage().rss;
    // A 1 ms ticker started before the call: its longest gap is the longest stall.
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    await new Promise((res) => setTimeout(res, 20));
    longest = 0;
    await fn();
    await new Promise((res) => setTimeout(res, 5)); // let the ticker see the last stall
    clearInterval(ticker);
    const rssGrowthMB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    worst.blockedMs = Math.max(worst.blockedMs, longest);
    worst.rssGrowthMB = Math.max(worst.rssGrowthMB, rssGrowthMB);
  }
  return { blockedMs: +worst.blockedMs.toFixed(1), rssGrowthMB: +worst.rssGrowthMB.toFixed(1) };
}

/** One measurement in this process, on an existing folder: printed as JSON for the parent. */
async function measureHere(what: string, root: string): Promise<void> {
  const big = path.join(root, "big");
  const ws = AnchoredWorkspace.open(root);
  try {
    const ceilings = defaultCeilings();
    const ctx = { callId: "bench", signal: new AbortController().signal } as unknown as ToolContext;
    const none = {} as ToolProposal;
    const calls: Record<string, () => Promise<unknown>> = {
      readdirSync: async () => fs.readdirSync(big, { withFileTypes: true }),
      list_dir: () => listDirTool(ws, ceilings).invoke({ path: "big" }, none, ctx),
      search_files: () => searchFilesTool(ws, ceilings).invoke({ pattern: "x", path: "big" }, none, ctx),
    };
    const cost = await costOf(calls[what]!);
    const result = (await calls[what]!()) as { output?: string } | undefined;
    console.log(JSON.stringify({ ...cost, lastLine: result?.output?.split("\n").at(-1) ?? null }));
  } finally {
    ws.close();
  }
}

const measure = process.argv.find((a) => a.startsWith("--measure="))?.slice("--measure=".length);
if (measure) {
  await measureHere(measure, process.argv.find((a) => a.startsWith("--root="))!.slice("--root=".length));
} else {
  // Each figure in a fresh process: resident memory a first call grew stays grown for the next.
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bigfolder-")));
  fs.mkdirSync(path.join(root, "big"));
  for (let i = 0; i < FILES; i++) fs.closeSync(fs.openSync(path.join(root, "big", `f${i}`), "w"));
  const rows: { name: string; ours: number; anchor: number; ratio: number; unit: string; anchorName: string }[] = [];
  const results: Record<string, unknown>[] = [];
  try {
    const run = (what: string): Cost & { lastLine: string | null } => {
      const r = spawnSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), `--measure=${what}`, `--root=${root}`],
        {
          encoding: "utf8",
        },
      );
      if (r.status !== 0) throw new Error(`measuring ${what} failed: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Cost & { lastLine: string | null };
    };
    const anchor = run("readdirSync");
    for (const name of ["list_dir", "search_files"]) {
      const ours = run(name);
      results.push({ tool: name, files: FILES, ...ours, readdirSync: anchor });
      const what = `${name} on ${FILES.toLocaleString("en")} empty files`;
      const anchorName = "fs.readdirSync of the folder";
      rows.push({
        name: `${what}: longest event-loop block`,
        ours: ours.blockedMs,
        anchor: anchor.blockedMs,
        ratio: +(ours.blockedMs / anchor.blockedMs).toFixed(3),
        unit: "ms",
        anchorName,
      });
      rows.push({
        name: `${what}: resident memory growth`,
        ours: ours.rssGrowthMB,
        anchor: anchor.rssGrowthMB,
        ratio: +(ours.rssGrowthMB / Math.max(anchor.rssGrowthMB, 0.1)).toFixed(3),
        unit: "MB",
        anchorName,
      });
      console.log(
        `${what}: blocked ${ours.blockedMs} ms, rss +${ours.rssGrowthMB} MB (readdirSync: ${anchor.blockedMs} ms, +${anchor.rssGrowthMB} MB); ${ours.lastLine}`,
      );
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const out = writeBenchResults("bigFolder", { results, rows });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

// llama.cpp's own llama-bench as an anchor (issue 6, item 8): built from the source node-llama-cpp
// bundles by test/support/buildLlamaTools.sh into a cache outside the repository (optional: ~10 minutes
// on 2 cores). The other benches import `llamaBench()`; run directly, this prints the anchor's own
// prefill and decode figures for the benchmark model and writes test/bench/results/llamaBench.json.
// usage: node --import tsx test/bench/llamaBench.ts [--quick]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeBenchResults } from "./support/benchProcess.js";

const cache = process.env.HEARTH_BENCH_CACHE ?? path.join(os.homedir(), ".cache", "hearth-bench");
export const LLAMA_BENCH = path.join(cache, "llama.cpp", "build", "bin", "llama-bench");

export interface LlamaBenchRun {
  /** Prompt tokens evaluated per repetition (0 for a decode run). */
  prompt: number;
  /** Tokens generated per repetition (0 for a prefill run). */
  gen: number;
  /** Tokens already in the KV cache before the timed part. */
  depth: number;
  /** Mean tokens per second over the repetitions. */
  tokensPerSecond: number;
}

/** The anchor, or null with the reason when it is not built (the benches print "not built"). */
export function llamaBench(): {
  run: (modelPath: string, threads: number, spec: { prompt?: number; gen?: number; depth?: number; reps?: number }) => LlamaBenchRun;
} | null {
  if (!fs.existsSync(LLAMA_BENCH)) return null;
  return {
    run(modelPath, threads, { prompt = 0, gen = 0, depth = 0, reps = 3 }) {
      // Same threads and batch as the adapter (128); one repetition is llama-bench's own warm-up.
      const args = [
        "-m",
        modelPath,
        "-t",
        String(threads),
        "-p",
        String(prompt),
        "-n",
        String(gen),
        "-b",
        "128",
        "-ub",
        "128",
        "-r",
        String(reps),
        "-o",
        "json",
      ];
      if (depth > 0) args.push("-d", String(depth));
      const out = execFileSync(LLAMA_BENCH, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 16 * 1024 * 1024 });
      const rows = JSON.parse(out) as { n_prompt: number; n_gen: number; n_depth?: number; avg_ts: number }[];
      const r = rows[0];
      if (!r) throw new Error(`llama-bench printed no result for ${args.join(" ")}`);
      return { prompt: r.n_prompt, gen: r.n_gen, depth: r.n_depth ?? 0, tokensPerSecond: r.avg_ts };
    },
  };
}

export const LLAMA_BATCHED_BENCH = path.join(cache, "llama.cpp", "build", "bin", "llama-batched-bench");

export interface BatchedBenchRun {
  /** Sequences decoding together, one token each per batch. */
  sequences: number;
  /** Prompt tokens of each sequence (evaluated once and copied: `-pps`), the depth decode starts at. */
  prompt: number;
  /** Tokens each sequence generates. */
  gen: number;
  /** Aggregate decode tokens per second over all sequences (llama-batched-bench's S_TG). */
  decodeTps: number;
}

/**
 * llama.cpp's `llama-batched-bench` (issue 16, item 5: the concurrency anchor), or null when it is not
 * built: `sequences` sequences each after a `prompt`-token prompt decode `gen` tokens in lockstep, one
 * token of each per batch, with the adapter's batch (128) and the kernel's KV layout (one stream per
 * sequence). Medians over `reps` runs of the tool (it has no repetitions of its own, nor a warm-up).
 */
export function llamaBatchedBench(): {
  run: (modelPath: string, threads: number, spec: { prompt: number; gen: number; sequences: number[]; reps?: number }) => BatchedBenchRun[];
} | null {
  if (!fs.existsSync(LLAMA_BATCHED_BENCH)) return null;
  return {
    run(modelPath, threads, { prompt, gen, sequences, reps = 1 }) {
      const most = Math.max(...sequences);
      // Each sequence gets its own stream of cells: the context holds the prompt and the answer of each.
      const perSequence = Math.ceil((prompt + gen + 1) / 256) * 256;
      const args = [
        "-m",
        modelPath,
        "-t",
        String(threads),
        "-c",
        String(perSequence * most),
        "-b",
        "128",
        "-ub",
        "128",
        "-npp",
        String(prompt),
        "-ntg",
        String(gen),
        // The first entry is a warm-up, discarded: the tool times its first case cold.
        "-npl",
        [1, ...sequences].join(","),
        "-pps",
        "--output-format",
        "jsonl",
      ];
      const samples = new Map<number, number[]>();
      for (let r = 0; r < reps; r++) {
        const out = execFileSync(LLAMA_BATCHED_BENCH, args, {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          maxBuffer: 16 * 1024 * 1024,
        });
        const rows = out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { pl: number; speed_tg: number });
        if (rows.length !== sequences.length + 1)
          throw new Error(`llama-batched-bench printed ${rows.length} results for ${args.join(" ")}`);
        rows.slice(1).forEach((row, i) => {
          samples.set(sequences[i]!, [...(samples.get(sequences[i]!) ?? []), row.speed_tg]);
        });
      }
      return sequences.map((n) => {
        const v = [...samples.get(n)!].sort((a, b) => a - b);
        const m = v.length >> 1;
        return { sequences: n, prompt, gen, decodeTps: v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2 };
      });
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ensureFixtureModels } = await import("../fixtures/models.js");
  const { physicalCores } = await import("../../sidecar/inference/llama/llamaRuntime.js");
  const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
  const threads = Number(process.env.THREADS ?? physicalCores());
  const bench = llamaBench();
  const results: Record<string, unknown> = { date: new Date().toISOString(), threads, binary: LLAMA_BENCH };
  if (!bench) {
    console.log(`llama-bench: not built (${LLAMA_BENCH}); run test/support/buildLlamaTools.sh (~10 minutes on 2 cores)`);
    results.built = false;
    results.rows = [];
  } else {
    const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;
    const reps = quick ? 2 : 3;
    const pp = bench.run(modelPath, threads, { prompt: 512, reps });
    const tg = bench.run(modelPath, threads, { gen: 64, reps });
    results.built = true;
    results.model = path.basename(modelPath);
    results.prefill512 = pp;
    results.decode64 = tg;
    console.log(
      `llama-bench ${path.basename(modelPath)}, ${threads} threads: prefill 512 ${pp.tokensPerSecond.toFixed(1)} tok/s, decode 64 ${tg.tokensPerSecond.toFixed(1)} tok/s`,
    );
    // The anchors' own figures: what the other benches' ratios are taken against on this machine.
    const batched = llamaBatchedBench()?.run(modelPath, threads, { prompt: 384, gen: quick ? 32 : 64, sequences: [1, 4, 8] });
    results.batched = batched ?? "not built";
    const one = batched?.find((b) => b.sequences === 1)?.decodeTps;
    results.rows = [
      {
        name: "llama-bench prefill 512 tok/s",
        ours: pp.tokensPerSecond,
        anchor: null,
        ratio: null,
        unit: "tok/s",
        anchorName: "(an anchor itself)",
      },
      {
        name: "llama-bench decode 64 tok/s",
        ours: tg.tokensPerSecond,
        anchor: null,
        ratio: null,
        unit: "tok/s",
        anchorName: "(an anchor itself)",
      },
      ...(batched ?? [])
        .filter((b) => b.sequences > 1)
        .map((b) => ({
          name: `llama-batched-bench aggregate decode tok/s, ${b.sequences} sequences at depth ${b.prompt}`,
          ours: b.decodeTps,
          anchor: one ?? null,
          ratio: one ? b.decodeTps / one : null,
          unit: "tok/s",
          anchorName: "llama-batched-bench, 1 sequence",
        })),
    ];
  }
  writeBenchResults("llamaBench", results);
}

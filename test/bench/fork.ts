// Fork benchmark (issue 29 item 5): the first token of a fork's first turn against the first token of
// a turn that evaluates only that new message at the same depth, both measured in this run on the same
// engine. Target: within 1.15x. The fork opens as a new session while the original is live and its state
// unsaved (the usual case in the chat): its first token includes saving the original's state, loading
// it and erasing what lies past the fork point (sidecar/inference/llama/sessionPool.ts).
// The anchor: the original itself sent the same-size message at the fork point, from its live cache.
// usage: node --import tsx test/bench/fork.ts   (THREADS=N to override physical cores; QUICK=1 for a short run)
// The machine may be shared: figures are noisy, compare ratios from one run, not across runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withOneLibuvWorker, writeBenchResults } from "./support/benchProcess.js";

withOneLibuvWorker();

const { median, text } = await import("./support/directAnchor.js");
const { LlamaAgentModel } = await import("../../sidecar/inference/llama/llamaAgentModel.js");
const { KvStateStore } = await import("../../sidecar/inference/llama/kvStateStore.js");
const { physicalCores } = await import("../../sidecar/inference/llama/llamaRuntime.js");
const { ensureFixtureModels } = await import("../fixtures/models.js");
type RoundStats = import("../../sidecar/inference/llama/llamaAgentModel.js").RoundStats;
type ModelMessage = import("../../sidecar/agent/ports/model.js").ModelMessage;

const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const threads = Number(process.env.THREADS ?? physicalCores());
const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;
/** Turns before the fork point, and after it in the original (what the fork's restore erases). */
const BEFORE = quick ? 6 : 12;
const AFTER = 3;
const REPS = quick ? 3 : 5;
const WORDS = 40;
const NEW_WORDS = 110;

const stats: RoundStats[] = [];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-fork-"));
const engine = await LlamaAgentModel.load({
  modelPath,
  threads,
  contextSize: 4096,
  maxSessions: REPS + 1, // every fork keeps its own sequence: no eviction's save is measured
  batchSize: 128,
  idleSaveMs: 3_600_000, // the original stays unsaved until a fork opens
  stateStore: new KvStateStore(stateDir, 2 * 1024 ** 3),
  onRoundStats: (s) => stats.push(s),
});
const turn = async (sessionKey: string, messages: ModelMessage[], maxTokens: number) => {
  const round = await engine.generate(
    { sessionKey, messages, tools: [], options: { maxTokens, temperature: 0 }, signal: new AbortController().signal },
    () => undefined,
  );
  return { round, stats: stats.at(-1)! };
};
const settle = () => new Promise((r) => setTimeout(r, 50));

try {
  const prefix: ModelMessage[] = [];
  for (let i = 0; i < BEFORE; i++) {
    prefix.push({ role: "user", text: text(i, WORDS) });
    const { round } = await turn("original", prefix, 24);
    prefix.push({ role: "assistant", text: round.text, toolCalls: [] });
  }
  const later: ModelMessage[] = [...prefix];
  for (let i = 0; i < AFTER; i++) {
    later.push({ role: "user", text: text(100 + i, WORDS) });
    const { round } = await turn("original", later, 24);
    later.push({ role: "assistant", text: round.text, toolCalls: [] });
  }

  const anchor: RoundStats[] = [];
  const fork: RoundStats[] = [];
  for (let r = 0; r < REPS; r++) {
    // The original goes on from the fork point with a new message: only that message is evaluated.
    await settle();
    anchor.push((await turn("original", [...prefix, { role: "user", text: text(200 + r, NEW_WORDS) }], 1)).stats);
    // Back to its later turns, unsaved, so each fork finds it live and past the fork point.
    await turn("original", later, 1);
    await settle();
    fork.push((await turn(`fork-${r}`, [...prefix, { role: "user", text: text(300 + r, NEW_WORDS) }], 1)).stats);
  }
  const ms = (xs: RoundStats[]) => median(xs.map((x) => x.firstTokenMs!));
  const evaluated = (xs: RoundStats[]) => median(xs.map((x) => x.prefillEvaluatedTokens));
  const depth = fork[0]!.reusedTokens;
  const rows = [
    {
      name: `fork's first token at depth ${depth} (median of ${REPS})`,
      ours: ms(fork),
      anchor: ms(anchor),
      ratio: ms(fork) / ms(anchor),
      unit: "ms",
      anchorName: "a turn evaluating only the same-size new message at the same depth",
      target: "<= 1.15x",
    },
    {
      name: "fork's evaluated prompt tokens",
      ours: evaluated(fork),
      anchor: evaluated(anchor),
      ratio: evaluated(fork) / evaluated(anchor),
      unit: "tokens",
      anchorName: "the same turn's evaluated tokens",
    },
  ];
  writeBenchResults("fork", {
    model: path.basename(modelPath),
    threads,
    quick,
    note: "shared machine: figures are noisy",
    rows,
    samples: { anchor, fork },
  });
  console.log(`model ${path.basename(modelPath)}, ${threads} threads; shared machine: noisy`);
  for (const r of rows)
    console.log(`${r.name}: ${r.ours.toFixed(1)} ${r.unit} vs ${r.anchor.toFixed(1)} ${r.unit} (${r.anchorName}) = ${r.ratio.toFixed(2)}x`);
} finally {
  await engine.dispose();
  fs.rmSync(stateDir, { recursive: true, force: true });
}

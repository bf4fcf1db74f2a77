// Inference benchmark (issue 6, item 8): every figure is a ratio to an anchor measured in this run on
// the same model and threads, greedy sampling. Writes test/bench/results/inference.json, prints a table.
// usage: node --import tsx test/bench/inference.ts   (THREADS=N to override physical cores; QUICK=1 for a short run)
// The machine may be shared: figures are noisy, compare ratios from one run, not across runs.
// Issue 32: first token at turns 2 to 60 of a growing session, and the main thread's CPU time per
// turn (test/bench/support/threadCpu.ts), against the same at turn 2: what grows with the history.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withOneLibuvWorker, writeBenchResults } from "./support/benchProcess.js";

withOneLibuvWorker();

const { openDirectAnchor, median, text } = await import("./support/directAnchor.js");
const { LlamaAgentModel } = await import("../../sidecar/inference/llama/llamaAgentModel.js");
const { KvStateStore } = await import("../../sidecar/inference/llama/kvStateStore.js");
const { physicalCores } = await import("../../sidecar/inference/llama/llamaRuntime.js");
const { ensureFixtureModels } = await import("../fixtures/models.js");
const { mainThreadCpuMs } = await import("./support/threadCpu.js");
type RoundStats = import("../../sidecar/inference/llama/llamaAgentModel.js").RoundStats;
type ModelMessage = import("../../sidecar/agent/ports/model.js").ModelMessage;

const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const threads = Number(process.env.THREADS ?? physicalCores());
const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;
const DECODE_TOKENS = quick ? 32 : 64;
const PREFILL_TOKENS = quick ? 256 : 512;
/** First-token figures at these turns of a growing session (issue 32), each the median of the turns around it. */
const DEPTH_TURNS = quick ? [2, 10, 20] : [2, 10, 20, 40, 60];
const depthWindow = (m: number) => (m === 2 ? [2, 3, 4] : [m - 1, m, m + 1]);
const GROW_TURNS = Math.max(...DEPTH_TURNS) + 1;
/** 61 turns of this many words and 24-token answers fit the 8,192-token context without condensing. */
const GROW_WORDS = 40;
const REPS = quick ? 1 : 3;
const signal = () => new AbortController().signal;
// Two contexts in one process share the thread budget: one that starts right after the other finishes
// may run on one thread until the event loop turns (probe finding), so yield between them.
const settle = () => new Promise((r) => setTimeout(r, 50));
const results: Record<string, unknown> = {
  model: path.basename(modelPath),
  threads,
  quick,
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  note: "shared machine: figures are noisy",
};
const rows: [string, string, string, string][] = [];
/** One per figure, the shape `npm run bench` gathers into its table. */
const table: { name: string; ours: number; anchor: number; ratio: number; unit: string; anchorName: string; target?: string }[] = [];
results.rows = table;
const row = (name: string, ours: number, anchor: number, unit: string, anchorName: string, target?: string) => {
  const ratio = ours / anchor;
  results[name] = { ours, anchor, ratio, unit, anchorName };
  table.push({ name, ours, anchor, ratio, unit, anchorName, ...(target ? { target } : {}) });
  rows.push([name, `${ours.toFixed(1)} ${unit}`, `${anchor.toFixed(1)} ${unit} (${anchorName})`, ratio.toFixed(2)]);
};

// ---- anchor engine: node-llama-cpp direct, same file, same threads ----
const direct = await openDirectAnchor({ modelPath, threads, contextSize: 8192, decodeTokens: DECODE_TOKENS });

const stats: RoundStats[] = [];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-kv-"));
const store = new KvStateStore(stateDir, 2 * 1024 ** 3);
const open = (opts: { store?: boolean; sessions?: number; lockstep?: boolean } = {}) =>
  LlamaAgentModel.load({
    modelPath,
    threads,
    contextSize: 8192 / (opts.sessions ?? 1),
    maxSessions: opts.sessions ?? 1,
    batchSize: 128,
    lockstep: opts.lockstep,
    stateStore: opts.store ? store : null,
    onRoundStats: (s) => stats.push(s),
  });

try {
  let adapter = await open({ store: true });
  // ---- decode and prefill vs node-llama-cpp direct ----
  const dec: number[] = [],
    decA: number[] = [],
    pre: number[] = [],
    preA: number[] = [];
  await direct.decodeTps(32); // warm-up
  for (let r = 0; r < REPS; r++) {
    await settle();
    decA.push(await direct.decodeTps(32));
    await settle();
    await adapter.generate(
      {
        sessionKey: `dec${r}`,
        messages: [{ role: "user", text: text(3 + r, 24) }],
        tools: [],
        options: { maxTokens: DECODE_TOKENS, temperature: 0 },
        signal: signal(),
      },
      () => undefined,
    );
    const s = stats.at(-1)!;
    dec.push((s.generatedTokens - 1) / ((s.totalMs - s.firstTokenMs!) / 1000));
    await settle();
    await adapter.generate(
      {
        sessionKey: `pre${r}`,
        messages: [{ role: "user", text: text(7 + r, PREFILL_TOKENS) }],
        tools: [],
        options: { maxTokens: 1, temperature: 0 },
        signal: signal(),
      },
      () => undefined,
    );
    const p = stats.at(-1)!;
    pre.push(p.prefillEvaluatedTokens / (p.firstTokenMs! / 1000));
    await settle();
    // Same work: the template's prefix may come from another session's saved state, so the same depth.
    preA.push(p.prefillEvaluatedTokens / ((await direct.prefillMs(p.prefillEvaluatedTokens, p.reusedTokens)) / 1000));
  }
  results.decodeRounds = stats
    .filter((s) => s.sessionKey.startsWith("dec"))
    .map((s) => ({ generatedTokens: s.generatedTokens, decodeMs: s.totalMs - s.firstTokenMs! }));
  row("decode tok/s", median(dec), median(decA), "tok/s", "node-llama-cpp sequence.evaluate");
  row("prefill tok/s", median(pre), median(preA), "tok/s", "node-llama-cpp evaluateWithoutGeneratingNewTokens");

  // ---- first-token time in a growing session vs a prefill of the same new tokens at the same depth ----
  // issue 32: at turns 2 to 60, each figure the median of three consecutive turns in each of REPS
  // sessions, and beside it the adapter's CPU time on the main thread per turn (the condenser's
  // measure and the round): its work outside native evaluation, which must not grow with depth.
  let messages: ModelMessage[] = [];
  const growKey = (r: number) => (r === REPS - 1 ? "grow" : `grow${r}`);
  const depthSamples = new Map<number, { round: RoundStats; anchorMs: number; cpuMs: number | null }[]>();
  for (let r = 0; r < REPS; r++) {
    messages = [];
    for (let turn = 1; turn <= GROW_TURNS; turn++) {
      messages.push({ role: "user", text: text(100 + turn + 1000 * r, GROW_WORDS) });
      const request = { sessionKey: growKey(r), messages, tools: [], options: { maxTokens: 24, temperature: 0 } };
      const cpu0 = mainThreadCpuMs(process.pid);
      await adapter.measure(request); // what the condenser does before every round (contextCondenser.ts)
      const round = await adapter.generate({ ...request, signal: signal() }, () => undefined);
      const cpu1 = mainThreadCpuMs(process.pid);
      messages.push({ role: "assistant", text: round.text, toolCalls: [] });
      const s = stats.at(-1)!;
      const m = DEPTH_TURNS.find((d) => depthWindow(d).includes(turn));
      if (m === undefined) continue;
      await settle();
      const anchorMs = await direct.firstTokenMs(s.prefillEvaluatedTokens, s.reusedTokens);
      const list = depthSamples.get(m) ?? [];
      list.push({ round: s, anchorMs, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 });
      depthSamples.set(m, list);
    }
  }
  const cpuAt = (m: number) => {
    const cpu = depthSamples.get(m)!.map((x) => x.cpuMs);
    return cpu.some((c) => c === null) ? null : median(cpu as number[]);
  };
  const cpuAtTurn2 = cpuAt(2);
  for (const m of DEPTH_TURNS) {
    const w = depthSamples.get(m)!;
    const at = w[w.length >> 1]!.round; // the middle sample: turn m of the middle session
    const where = `${at.prefillEvaluatedTokens} new at depth ${at.reusedTokens}; median of turns ${depthWindow(m).join(", ")} x ${REPS}`;
    row(
      `first token ms, turn ${m} (${where})`,
      median(w.map((x) => x.round.firstTokenMs!)),
      median(w.map((x) => x.anchorMs)),
      "ms",
      "node-llama-cpp, first token after the same new tokens at that depth",
      m >= 20 ? "<= 1.05x" : undefined,
    );
    const cpu = cpuAt(m);
    if (cpu !== null && cpuAtTurn2 !== null && m !== 2)
      row(
        `main-thread CPU ms per turn outside native evaluation, turn ${m}`,
        cpu,
        cpuAtTurn2,
        "ms",
        "the same at turn 2",
        m === 60 ? "<= 1.2x" : undefined,
      );
  }
  results.growingSession = [...depthSamples].map(([turn, w]) => ({
    turn,
    samples: w.map((x) => ({
      firstTokenMs: x.round.firstTokenMs,
      anchorMs: x.anchorMs,
      cpuMs: x.cpuMs,
      evaluated: x.round.prefillEvaluatedTokens,
      reused: x.round.reusedTokens,
      tokenizedChars: x.round.tokenizedChars,
    })),
  }));

  // ---- first token after a restart with saved state vs a full re-prefill ----
  await adapter.saveSession("grow");
  await adapter.dispose();
  messages.push({ role: "user", text: text(999, 110) });
  adapter = await open({ store: true });
  await adapter.generate(
    { sessionKey: "grow", messages, tools: [], options: { maxTokens: 1, temperature: 0 }, signal: signal() },
    () => undefined,
  );
  const restored = stats.at(-1)!;
  await adapter.dispose();
  const cold = await open({ store: false });
  await cold.generate(
    { sessionKey: "grow", messages, tools: [], options: { maxTokens: 1, temperature: 0 }, signal: signal() },
    () => undefined,
  );
  const full = stats.at(-1)!;
  await cold.dispose();
  row(
    `first token ms after restart (${restored.restoredTokens} tokens restored)`,
    restored.firstTokenMs!,
    full.firstTokenMs!,
    "ms",
    `full re-prefill of ${full.prefillEvaluatedTokens} tokens`,
  );

  // ---- aggregate decode, 4 concurrent sessions vs one ----
  const aggregate = async (model: Awaited<ReturnType<typeof open>>, k: number) => {
    const before = stats.length;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: k }, (_, i) =>
        model.generate(
          {
            sessionKey: `c${k}-${i}-${Math.random()}`,
            messages: [{ role: "user", text: text(200 + i, 24) }],
            tools: [],
            options: { maxTokens: DECODE_TOKENS, temperature: 0 },
            signal: signal(),
          },
          () => undefined,
        ),
      ),
    );
    const ms = performance.now() - t0;
    const mine = stats.slice(before);
    const firstAll = Math.max(...mine.map((s) => s.firstTokenMs!));
    return mine.reduce((a, s) => a + s.generatedTokens - 1, 0) / ((ms - firstAll) / 1000);
  };
  const one: number[] = [],
    four: number[] = [],
    drift: number[] = [],
    ideal: number[] = [];
  const lockstep = await open({ sessions: 4 });
  for (let r = 0; r < REPS; r++) {
    one.push(await aggregate(lockstep, 1));
    four.push(await aggregate(lockstep, 4));
    await settle();
    ideal.push(await direct.lockstepDecodeTps(4));
    await settle();
  }
  await lockstep.dispose();
  const free = await open({ sessions: 4, lockstep: false });
  for (let r = 0; r < REPS; r++) drift.push(await aggregate(free, 4));
  await free.dispose();
  row("aggregate decode tok/s, 4 sessions (lockstep gate)", median(four), median(one), "tok/s", "one session");
  row(
    "aggregate decode tok/s, 4 sessions (lockstep gate) vs direct lockstep",
    median(four),
    median(ideal),
    "tok/s",
    "node-llama-cpp, 4 sequences in lockstep",
  );
  row("aggregate decode tok/s, 4 sessions (no gate)", median(drift), median(one), "tok/s", "one session");

  // ---- cancel latency during prefill and during decode ----
  const cancelModel = await open();
  const cancelAt = async (kind: "prefill" | "decode") => {
    const ac = new AbortController();
    let tAbort = 0;
    const msgs: ModelMessage[] = [{ role: "user", text: text(300 + Math.random() * 1000, kind === "prefill" ? 1500 : 16) }];
    const p = cancelModel.generate(
      { sessionKey: `x${Math.random()}`, messages: msgs, tools: [], options: { maxTokens: 400, temperature: 0 }, signal: ac.signal },
      () => {
        if (kind === "decode" && tAbort === 0)
          setTimeout(() => {
            tAbort = performance.now();
            ac.abort(new Error("cancel"));
          }, 200);
      },
    );
    // A random moment within a chunk: a cancel waits for the rest of the chunk in flight.
    if (kind === "prefill")
      setTimeout(
        () => {
          tAbort = performance.now();
          ac.abort(new Error("cancel"));
        },
        500 + Math.random() * 400,
      );
    const ended = await p.then(
      () => "it completed",
      (e: Error) => e.message,
    );
    // A round that ended before its cancel has no cancel latency: a failed sample, never a figure.
    if (tAbort === 0) throw new Error(`cancel during ${kind}: the round ended before the cancel (${ended})`);
    return performance.now() - tAbort;
  };
  const cp: number[] = [],
    cd: number[] = [];
  // issue 16, item 5: the slowest of 20 cancels during prefill, target ≤ 200 ms.
  const prefillCancels = quick ? 6 : 20;
  for (let r = 0; r < Math.max(REPS, 7, prefillCancels); r++) {
    if (r < prefillCancels) cp.push(await cancelAt("prefill"));
    if (r < Math.max(REPS, 7)) cd.push(await cancelAt("decode"));
  }
  await cancelModel.dispose();
  const oneToken = 1000 / median(decA);
  const chunkMs = (128 / median(preA)) * 1000;
  results.cancelSamples = { prefill: cp, decode: cd };
  row(`cancel latency during prefill, median of ${cp.length}`, median(cp), chunkMs, "ms", "one 128-token prefill chunk");
  row(`cancel latency during prefill, slowest of ${cp.length}`, Math.max(...cp), 200, "ms", "target (issue 16)");
  row("cancel latency during decode", median(cd), oneToken, "ms", "one decode step");
} finally {
  fs.rmSync(stateDir, { recursive: true, force: true });
  await direct.dispose();
}

writeBenchResults("inference", results);
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), 5));
console.log(`model ${results.model}, ${threads} threads, greedy; shared machine: noisy`);
for (const r of [["figure", "ours", "anchor", "ratio"], ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));

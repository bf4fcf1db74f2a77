// Issue 32 probe: does a 4-sequence context slow one sequence's first token at depth? node-llama-cpp 3.21.1 leaves
// llama.cpp's kv_unified at false, so each sequence has its own KV stream (logged below) and attention at depth
// should span only its own cells. First token after 52 new tokens at DEPTH, 1-sequence context vs a 4-sequence one
// with the other sequences empty, then filled to DEPTH each, interleaved. Prints one JSON line.
// usage: UV_THREADPOOL_SIZE=1 node --import tsx test/bench/kvStreams.ts   (THREADS, DEPTH, REPS)
import { getLlama, LlamaLogLevel, type LlamaContextSequence } from "node-llama-cpp";
import { text, median } from "./support/directAnchor.js";
const modelPath = "test/fixtures/models/qwen05b-shape-q8_0.gguf";
const threads = Number(process.env.THREADS ?? 2);
const D = Number(process.env.DEPTH ?? 3200);
const REPS = Number(process.env.REPS ?? 5);
const logs: string[] = [];
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const llama = await getLlama({
  build: "never",
  gpu: false,
  maxThreads: threads,
  logLevel: LlamaLogLevel.info,
  logger: (_l, m) => {
    if (/kv_unified|n_ctx_seq|n_seq_max|flash_attn/.test(m)) logs.push(m.trim());
  },
});
const model = await llama.loadModel({ modelPath });
const tok = (seed: number, n: number) => model.tokenize(text(seed, n * 2)).slice(0, n);
async function firstToken(seq: LlamaContextSequence, seed: number) {
  const t0 = performance.now();
  for await (const _ of seq.evaluate(tok(600 + seed, 52), { temperature: 0 })) break;
  const ms = performance.now() - t0;
  await seq.eraseContextTokenRanges([{ start: D, end: seq.nextTokenIndex }]);
  return ms;
}
const one = await model.createContext({ contextSize: 8192, sequences: 1, batchSize: 128, threads });
say(`1-seq: ${logs.splice(0).join(" | ")}`);
const four = await model.createContext({ contextSize: 8192, sequences: 4, batchSize: 128, threads });
say(`4-seq: ${logs.splice(0).join(" | ")}`);
const a = one.getSequence(),
  b = four.getSequence();
const history = tok(5, D);
await a.evaluateWithoutGeneratingNewTokens(history);
await b.evaluateWithoutGeneratingNewTokens(history);
say(`prefilled ${D} on both`);
const oneA: number[] = [],
  fourEmpty: number[] = [],
  oneB: number[] = [],
  fourFilled: number[] = [];
for (let r = 0; r < REPS; r++) {
  oneA.push(await firstToken(a, r));
  fourEmpty.push(await firstToken(b, r));
}
say(`others empty: 1-seq ${median(oneA).toFixed(0)} ms, 4-seq ${median(fourEmpty).toFixed(0)} ms`);
const kept: LlamaContextSequence[] = [];
for (let i = 0; i < 3; i++) {
  const s = four.getSequence();
  await s.evaluateWithoutGeneratingNewTokens(tok(50 + i, D));
  kept.push(s);
  say(`filled other ${i}`);
}
for (let r = 0; r < REPS; r++) {
  oneB.push(await firstToken(a, r));
  fourFilled.push(await firstToken(b, r));
}
say(`others filled: 1-seq ${median(oneB).toFixed(0)} ms, 4-seq ${median(fourFilled).toFixed(0)} ms`);
console.log(JSON.stringify({ depth: D, threads, load: (await import("node:os")).loadavg(), oneA, fourEmpty, oneB, fourFilled }));
for (const s of kept) s.dispose();
await four.dispose();
await one.dispose();
await model.dispose();
await llama.dispose();

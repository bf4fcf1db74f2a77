// The chunked prefill on real node-llama-cpp (issue 6, item 3): whole chunks are evaluated with a
// cancellation check between them; the last chunk is left to generation, which evaluates it in one
// batch with the logits it needs (no separate one-token step before the first token).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { getLlama, LlamaLogLevel, type Llama, type LlamaContext, type LlamaModel, type Token } from "node-llama-cpp";
import { chunkedPrefill } from "../../../sidecar/inference/llama/chunkedPrefill.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

let llama: Llama;
let model: LlamaModel;
let context: LlamaContext;
const CHUNK = 32;

before(async () => {
  llama = await getLlama({ build: "never", gpu: false, maxThreads: 1, logLevel: LlamaLogLevel.error });
  model = await llama.loadModel({ modelPath: ensureFixtureModels().chat });
  context = await model.createContext({ contextSize: 512, sequences: 1, batchSize: CHUNK, threads: 1 });
});
after(async () => { await context?.dispose(); await model?.dispose(); await llama?.dispose(); });

const prompt = (n: number) => model.tokenize("the build passed and the tests were green on every platform ".repeat(40)).slice(0, n) as Token[];

test("prefill leaves exactly the last chunk (1..batch tokens) to generation and keeps the evaluated prefix (issue 6, item 3)", async () => {
  const seq = context.getSequence();
  try {
    const signal = new AbortController().signal;
    // 100 new tokens at chunk 32: three whole chunks (96), the last 4 left to generation.
    const first = await chunkedPrefill(seq, prompt(100), CHUNK, signal);
    assert.deepEqual(first, { reusedTokens: 0, evaluatedTokens: 100 });
    assert.equal(seq.contextTokens.length, 96);
    // Fewer new tokens than a chunk: nothing is evaluated apart from generation.
    const again = await chunkedPrefill(seq, prompt(120), CHUNK, signal);
    assert.deepEqual(again, { reusedTokens: 96, evaluatedTokens: 24 });
    assert.equal(seq.contextTokens.length, 96);
    // Exactly one chunk more than held: it is generation's single batch, not evaluated here.
    const exact = await chunkedPrefill(seq, prompt(96 + CHUNK), CHUNK, signal);
    assert.equal(exact.evaluatedTokens, CHUNK);
    assert.equal(seq.contextTokens.length, 96);
    // Everything held already: nothing to evaluate, nothing erased.
    const held = await chunkedPrefill(seq, prompt(96), CHUNK, signal);
    assert.deepEqual(held, { reusedTokens: 96, evaluatedTokens: 0 });
    assert.equal(seq.contextTokens.length, 96);
  } finally {
    seq.dispose();
  }
});

test("an aborted signal stops the prefill before the next chunk and rejects with its reason (issue 6, item 3; spec 000 #22)", async () => {
  const seq = context.getSequence();
  try {
    const ac = new AbortController();
    ac.abort(new Error("cancelled by the test"));
    await assert.rejects(chunkedPrefill(seq, prompt(200), CHUNK, ac.signal), /cancelled by the test/);
    assert.equal(seq.contextTokens.length, 0);
  } finally {
    seq.dispose();
  }
});

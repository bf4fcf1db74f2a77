// The chunked prefill on real node-llama-cpp (issue 6, item 3): whole chunks are evaluated with a
// cancellation check between them; the last new tokens, up to one batch, are left to generation, which
// evaluates them in one batch with the logits it needs (no separate one-token step before the first token).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { getLlama, LlamaLogLevel, type Llama, type LlamaContext, type LlamaModel, type Token } from "node-llama-cpp";
import fc from "fast-check";
import { chunkedPart, chunkedPrefill } from "../../../sidecar/inference/llama/chunkedPrefill.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

let llama: Llama;
let model: LlamaModel;
let context: LlamaContext;
const CHUNK = 16;
const BATCH = 32;
const sizes = { chunk: CHUNK, lastBatch: BATCH };

before(async () => {
  llama = await getLlama({ build: "never", gpu: false, maxThreads: 1, logLevel: LlamaLogLevel.error });
  model = await llama.loadModel({ modelPath: ensureFixtureModels().chat });
  context = await model.createContext({ contextSize: 512, sequences: 1, batchSize: BATCH, threads: 1 });
});
after(async () => {
  await context?.dispose();
  await model?.dispose();
  await llama?.dispose();
});

const prompt = (n: number) =>
  model.tokenize("the build passed and the tests were green on every platform ".repeat(40)).slice(0, n) as Token[];

test("prefill leaves the last new tokens, up to one batch, to generation and keeps the evaluated prefix (issue 6, item 3)", async () => {
  const seq = context.getSequence();
  try {
    const signal = new AbortController().signal;
    // 100 new tokens: five 16-token chunks (80), the last 20 (≤ one 32-token batch) left to generation.
    const first = await chunkedPrefill(seq, prompt(100), sizes, signal);
    assert.deepEqual(first, { reusedTokens: 0, evaluatedTokens: 100 });
    assert.equal(seq.contextTokens.length, 80);
    // 40 new tokens on top: one chunk, then 24 for generation.
    const again = await chunkedPrefill(seq, prompt(120), sizes, signal);
    assert.deepEqual(again, { reusedTokens: 80, evaluatedTokens: 40 });
    assert.equal(seq.contextTokens.length, 96);
    // Exactly one batch of new tokens: all of it is generation's single batch, nothing evaluated here.
    const exact = await chunkedPrefill(seq, prompt(96 + BATCH), sizes, signal);
    assert.equal(exact.evaluatedTokens, BATCH);
    assert.equal(seq.contextTokens.length, 96);
    // Everything held already: nothing to evaluate, nothing erased.
    const held = await chunkedPrefill(seq, prompt(96), sizes, signal);
    assert.deepEqual(held, { reusedTokens: 96, evaluatedTokens: 0 });
    assert.equal(seq.contextTokens.length, 96);
  } finally {
    seq.dispose();
  }
});

test("the chunked part is whole chunks and leaves the final batch as full as it can be (issue 6, item 3)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 5000 }),
      fc.integer({ min: 1, max: 256 }),
      fc.integer({ min: 0, max: 256 }),
      (n, chunk, extra) => {
        const last = chunk + extra;
        const part = chunkedPart(n, chunk, last);
        assert.equal(part % chunk, 0);
        assert.ok(n - part <= last, "the final batch holds at most one batch");
        assert.ok(part === 0 || n - part > last - chunk, "one chunk fewer would still have fitted");
      },
    ),
  );
});

test("an aborted signal stops the prefill before the next chunk and rejects with its reason (issue 6, item 3; harness #22)", async () => {
  const seq = context.getSequence();
  try {
    const ac = new AbortController();
    ac.abort(new Error("cancelled by the test"));
    await assert.rejects(chunkedPrefill(seq, prompt(200), sizes, ac.signal), /cancelled by the test/);
    assert.equal(seq.contextTokens.length, 0);
  } finally {
    seq.dispose();
  }
});

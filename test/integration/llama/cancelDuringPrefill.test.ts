// A cancel during prefill answers at once (issue 16, item 5): node-llama-cpp finishes a prompt batch it
// has started, so the round rejects without waiting for that batch; the session stays busy until the
// batch has ended, and its next round then finds a sequence that holds exactly what was evaluated.
import assert from "node:assert/strict";
import { test } from "node:test";
import { llamaModelForFile } from "../../support/llamaModel.js";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import type { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";

const llama = llamaModelForFile((paths) => ({
  modelPath: paths.chat,
  threads: 1,
  contextSize: 2048,
  maxSessions: 2,
  batchSize: 32,
  prefillChunk: 16,
  stateStore: null,
}));

const long = "the build passed and the tests were green on every platform ".repeat(12);
const req = (sessionKey: string, text: string, signal: AbortSignal): GenerationRequest => ({
  sessionKey,
  messages: [{ role: "user", text }],
  tools: [],
  options: { maxTokens: 8, temperature: 0 },
  signal,
});

/** Holds the context's prompt batches (internal of node-llama-cpp 3.21.1, as the lockstep gate uses) until released. */
function holdPromptBatches(m: LlamaAgentModel) {
  const context = (
    m as unknown as { context: { _decodeTokens: (r: { tokens: readonly number[] }, ...rest: unknown[]) => Promise<unknown> } }
  ).context;
  const original = context._decodeTokens;
  const held: (() => void)[] = [];
  let holding = true;
  let started = 0;
  context._decodeTokens = (request, ...rest) => {
    const call = () => original.call(context, request, ...rest);
    if (!holding || request.tokens.length === 1) return call();
    started++;
    return new Promise<void>((r) => held.push(r)).then(call);
  };
  return {
    get started() {
      return started;
    },
    release() {
      holding = false;
      for (const r of held.splice(0)) r();
    },
    restore() {
      context._decodeTokens = original;
    },
  };
}

const turns = () => new Promise((r) => setImmediate(r));

test("a round cancelled while a prompt batch runs rejects before the batch ends; the session's next round waits for it and answers as a fresh one (issue 16, item 5)", async () => {
  const fresh = await llama.model.generate(req("fresh", `${long}\nWhat now?`, new AbortController().signal), () => undefined);

  const hold = holdPromptBatches(llama.model);
  try {
    const ac = new AbortController();
    const cancelled = llama.model.generate(req("s", long, ac.signal), () => undefined);
    while (hold.started === 0) await turns();
    ac.abort(new Error("cancelled by the test"));
    // The first prompt chunk is still held inside node-llama-cpp: the round answers anyway.
    await assert.rejects(cancelled, /cancelled by the test/);
    assert.equal(hold.started, 1, "no further chunk was started after the cancel");

    let settled = false;
    const next = llama.model
      .generate(req("s", `${long}\nWhat now?`, new AbortController().signal), () => undefined)
      .finally(() => {
        settled = true;
      });
    for (let i = 0; i < 20; i++) await turns();
    assert.equal(settled, false, "the session's next round waits for the batch still in flight");
    assert.equal(hold.started, 1);
    hold.release();
    const answer = await next;
    assert.equal(answer.text, fresh.text, "the sequence holds exactly what was evaluated: the same greedy answer as a fresh session");
  } finally {
    hold.release();
    hold.restore();
  }
});

test("harness #18 #22: a cancelled round's native work is awaited before its cancel counts as acknowledged: settled() waits for the batch still in flight", async () => {
  const hold = holdPromptBatches(llama.model);
  try {
    const ac = new AbortController();
    const cancelled = llama.model.generate(req("ack", long, ac.signal), () => undefined);
    while (hold.started === 0) await turns();
    ac.abort(new Error("cancelled by the test"));
    await assert.rejects(cancelled, /cancelled by the test/);
    let nativeEnded = false;
    const settled = llama.model.settled("ack").then(() => {
      nativeEnded = true;
    });
    for (let i = 0; i < 20; i++) await turns();
    assert.equal(nativeEnded, false, "the round answered, but its prompt batch is still running inside llama.cpp");
    hold.release();
    await settled;
    assert.equal(nativeEnded, true);
    let idle = false;
    await llama.model.settled("never-used").then(() => {
      idle = true;
    });
    assert.equal(idle, true, "a session with no round in flight is settled at once");
  } finally {
    hold.release();
    hold.restore();
  }
});

// The prefill ahead of a turn (issue 30, item 3) on real node-llama-cpp and the synthetic chat model:
// it evaluates into the session's cache the prompt the next round begins with before its user message,
// so that round evaluates only its message; it changes nothing the model is shown (the round's prompt
// is the same tokens as a session's that was never prefilled, and so is its greedy answer); and a round
// that arrives while it runs waits for one batch at most: the prefill stops before its next chunk.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { GenerationRequest, ModelMessage } from "../../../sidecar/agent/ports/model.js";
import type { LlamaAgentModel, PrefillStats, RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { llamaModelForFile } from "../../support/llamaModel.js";

const CHUNK = 16;
const rounds: RoundStats[] = [];
const prefills: PrefillStats[] = [];
const llama = llamaModelForFile((paths) => ({
  modelPath: paths.chat,
  threads: 1,
  contextSize: 2048,
  maxSessions: 3,
  batchSize: 32,
  prefillChunk: CHUNK,
  stateStore: null,
  onRoundStats: (s) => rounds.push(s),
  onPrefillStats: (s) => prefills.push(s),
}));

/** A condensed history as the kernel shows it: instructions, the summary, the kept turn and its answer. */
const history: ModelMessage[] = [
  { role: "system", text: "You are a careful coding assistant." },
  {
    role: "user",
    text: `[Summary of the 40 earlier messages]\n${"The person asked about the build; the tests passed on every platform. ".repeat(8)}`,
  },
  { role: "user", text: "Which box holds the marbles?" },
  { role: "assistant", text: "Box 3 holds them, with a note about item 3.", toolCalls: [] },
];
const tools = [
  {
    name: "read_file",
    description: "Reads a file of the workspace.",
    parameters: { type: "object" as const, properties: { path: { type: "string" as const } }, required: ["path"] },
  },
];
const options = { maxTokens: 8, temperature: 0 };
const prefixOf = (sessionKey: string, signal: AbortSignal): GenerationRequest => ({
  sessionKey,
  messages: history,
  tools,
  options,
  signal,
});
const turn = (sessionKey: string, text: string): GenerationRequest => ({
  sessionKey,
  messages: [...history, { role: "user", text }],
  tools,
  options,
  signal: new AbortController().signal,
});
const lastRound = (sessionKey: string) => rounds.filter((r) => r.sessionKey === sessionKey).at(-1)!;

test("after a prefill the next round evaluates only its message, shown the same prompt and giving the same answer as without it (issue 30, item 3)", async () => {
  const done = await llama.model.prefill(prefixOf("warm", new AbortController().signal));
  assert.equal(done.reusedTokens, 0, "a new session's cache holds nothing");
  assert.equal(done.evaluatedTokens, done.prefixTokens, "the whole prefix was evaluated");
  assert.deepEqual(
    prefills.map((p) => [p.sessionKey, p.evaluatedTokens, p.cancelled]),
    [["warm", done.prefixTokens, false]],
  );

  const warm = await llama.model.generate(turn("warm", "Where is the note?"), () => undefined);
  const cold = await llama.model.generate(turn("cold", "Where is the note?"), () => undefined);
  const [w, c] = [lastRound("warm"), lastRound("cold")];
  assert.equal(w.promptDigest, c.promptDigest, "the prefill changed nothing the model is shown");
  assert.equal(w.promptTokens, c.promptTokens);
  assert.equal(w.reusedTokens, done.prefixTokens, "the round found its prompt before the message in the cache");
  assert.equal(w.prefillEvaluatedTokens, w.promptTokens - done.prefixTokens, "and evaluated only its message");
  assert.ok(w.prefillEvaluatedTokens < 32, `only the message and the answer's header: ${JSON.stringify(w)}`);
  assert.equal(c.prefillEvaluatedTokens, c.promptTokens, "a session never prefilled evaluates the whole prompt");
  assert.equal(warm.text, cold.text, "the same greedy answer");

  // Prefilled again with the cache already holding the prefix: nothing to evaluate.
  const again = await llama.model.prefill(prefixOf("cold", new AbortController().signal));
  assert.equal(again.reusedTokens, again.prefixTokens, "a session that ran the round holds the prefix already");
  assert.equal(again.evaluatedTokens, 0);
});

/** Holds the context's prompt batches (node-llama-cpp 3.21.1's internal, as the lockstep gate uses) until released. */
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

const ticks = () => new Promise((r) => setImmediate(r));

test("a round arriving during a prefill waits for the batch in flight only: the prefill answers its cancel at once and starts no further chunk (issue 30, item 3)", async () => {
  const hold = holdPromptBatches(llama.model);
  try {
    const ac = new AbortController();
    const prefill = llama.model.prefill(prefixOf("yield", ac.signal));
    while (hold.started === 0) await ticks();
    // What the kernel does when a turn starts (BackgroundCondensing.yieldToTurn), then the turn's round.
    ac.abort(new Error("a turn started"));
    await assert.rejects(prefill, /a turn started/, "the prefill answers its cancel while its chunk is still held");
    const round = llama.model.generate(turn("yield", "Where is the note?"), () => undefined);
    for (let i = 0; i < 20; i++) await ticks();
    assert.equal(hold.started, 1, "nothing but the chunk in flight was started: the round waits for that one batch");
    hold.release();
    await round;
  } finally {
    hold.release();
    hold.restore();
  }
  const [stopped] = prefills.filter((p) => p.sessionKey === "yield");
  assert.ok(stopped, "the cancelled prefill reported what it did once its chunk ended");
  assert.equal(stopped.cancelled, true);
  assert.equal(stopped.evaluatedTokens, CHUNK, "it stopped after the chunk in flight");
  const r = lastRound("yield");
  assert.equal(r.reusedTokens, CHUNK, "the round reused what the prefill had evaluated, and evaluated the rest");
  assert.equal(r.reusedTokens + r.prefillEvaluatedTokens, r.promptTokens);
});

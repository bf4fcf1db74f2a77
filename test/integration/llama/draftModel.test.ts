// A draft model (issue 30, item 1; draftModel.ts) changes how fast an answer decodes, never what it is:
// the same requests through an adapter drafting with a model of the same vocabulary and through one
// decoding one token a step give the same tokens, one by one, alone and with two sessions at once.
// A draft of another vocabulary is refused when it loads, saying why, and the chat model goes on with
// input lookup; the draft's context is freed with the chat model.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import type { RoundStats } from "../../../sidecar/inference/llama/adapterOptions.js";
import type { DraftModel } from "../../../sidecar/inference/llama/draftModel.js";
import { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import type { LockstepGate } from "../../../sidecar/inference/llama/lockstepGate.js";
import type { SessionPool } from "../../../sidecar/inference/llama/sessionPool.js";
import { COPY_MODEL_ANSWER, ensureFixtureModels } from "../../fixtures/models.js";
import { llamaModelForFile } from "../../support/llamaModel.js";

const stats = { drafted: [] as RoundStats[], plain: [] as RoundStats[], lookup: [] as RoundStats[] };
const base = { threads: 1, contextSize: 1024, maxSessions: 2, batchSize: 64, stateStore: null };
// The copy fixture answers the alphabet to anything; drafting with itself, every draft is right.
const drafted = llamaModelForFile((m) => ({
  ...base,
  modelPath: m.copy,
  draftModelPath: m.copy,
  onRoundStats: (s) => stats.drafted.push(s),
}));
const plain = llamaModelForFile((m) => ({ ...base, modelPath: m.copy, inputLookup: false, onRoundStats: (s) => stats.plain.push(s) }));
// The Llama 3.2 template fixture has other start and end tokens than the Qwen2 fixtures.
const mismatched = llamaModelForFile((m) => ({
  ...base,
  modelPath: m.copy,
  draftModelPath: m.templates.llama32,
  onRoundStats: (s) => stats.lookup.push(s),
}));

function request(sessionKey: string, user: string): GenerationRequest {
  return {
    sessionKey,
    messages: [
      { role: "system", text: "Repeat what you are given." },
      { role: "user", text: user },
    ],
    tools: [],
    options: { maxTokens: 64 },
    signal: new AbortController().signal,
  };
}

/** Every token the session's sequence holds after its round: the prompt's, then the answer's. */
const tokensOf = (m: LlamaAgentModel, key: string) => [...(m as unknown as { pool: SessionPool }).pool.get(key)!.sequence.contextTokens];

describe("a draft model", { timeout: 180_000 }, () => {
  it("gives the tokens decoding without prediction gives, one by one, and its drafts are confirmed where they are right", async () => {
    const user = `Repeat: ${COPY_MODEL_ANSWER}`;
    const a = await drafted.model.generate(request("greedy", user), () => undefined);
    const b = await plain.model.generate(request("greedy", user), () => undefined);
    assert.equal(b.text, COPY_MODEL_ANSWER, "the fixture answers with the alphabet");
    assert.equal(a.text, b.text);
    assert.deepEqual(tokensOf(drafted.model, "greedy"), tokensOf(plain.model, "greedy"));
    assert.deepEqual(drafted.model.draftStatus, { path: ensureFixtureModels().copy, state: "loaded", error: null });
    assert.deepEqual(stats.plain.at(-1)!.predictedTokens, { validated: 0, refuted: 0 }, "without prediction nothing is guessed");
    const drafts = stats.drafted.at(-1)!.predictedTokens;
    assert.ok(drafts.validated > 0, `drafts confirmed: ${JSON.stringify(drafts)}`);
  });

  it("leaves two concurrent sessions in lockstep, each with the tokens it gets alone", async () => {
    const users = ["Repeat: lima mike", "Say something else."];
    const alone: number[][] = [];
    for (const [i, user] of users.entries()) {
      await drafted.model.generate(request(`alone-${i}`, user), () => undefined);
      alone.push(tokensOf(drafted.model, `alone-${i}`));
    }
    const gate = (drafted.model as unknown as { gate: LockstepGate }).gate;
    const before = { ...gate.released };
    await Promise.all(users.map((user, i) => drafted.model.generate(request(`together-${i}`, user), () => undefined)));
    assert.deepEqual(
      users.map((_, i) => tokensOf(drafted.model, `together-${i}`)),
      alone,
    );
    // Their one-token steps were released together, never by the gate's safety timeout.
    assert.ok(gate.released.shared > before.shared, "the two sessions shared decode steps");
    assert.equal(gate.released.timedOut, before.timedOut);
  });

  it("of another vocabulary is refused when it loads, saying what, why and what to do, and input lookup guesses instead", async () => {
    const status = mismatched.model.draftStatus!;
    assert.equal(status.state, "refused");
    assert.match(status.error!, /refused: the draft model .*tiny-llama32-template\.gguf does not share the chat model's vocabulary/);
    assert.match(
      status.error!,
      /its vocabulary has 512 tokens and the chat model's 538, and 26 of the ids past 512 are tokens the draft lacks/,
    );
    assert.match(status.error!, /name a smaller model of the chat model's own family.*or clear hearth\.inference\.draftModel/i);
    const r = await mismatched.model.generate(request("lookup", `Repeat: ${COPY_MODEL_ANSWER}`), () => undefined);
    assert.equal(r.text, COPY_MODEL_ANSWER);
    assert.ok(stats.lookup.at(-1)!.predictedTokens.validated >= 20, "input lookup's guesses were confirmed");
  });

  it("is refused for a vocabulary with tokens the chat model lacks, for other special tokens, and where no file is", async () => {
    const m = ensureFixtureModels();
    const cases = [
      {
        draft: m.copy,
        why: /tiny-qwen2-copy\.gguf does not share .*its vocabulary has 538 tokens and the chat model's 512, and 26 of the ids past 512 are tokens the chat model lacks/,
      },
      { draft: m.templates.llama32, why: /tiny-llama32-template\.gguf does not share .*its bos token is \d+ and the chat model's \d+/ },
      {
        draft: "/nowhere/draft.gguf",
        why: /draft\.gguf is not a GGUF file on this machine, so the chat model runs without it; set it to the path of one/,
      },
    ];
    for (const { draft, why } of cases) {
      const model = await LlamaAgentModel.load({ ...base, modelPath: m.chat, draftModelPath: draft });
      try {
        assert.match(model.draftStatus!.error!, why);
      } finally {
        await model.dispose();
      }
    }
  });

  it("frees its context and weights when the chat model is unloaded", async () => {
    const m = ensureFixtureModels();
    const model = await LlamaAgentModel.load({ ...base, modelPath: m.copy, draftModelPath: m.copy });
    await model.generate(request("freed", "Repeat: alpha"), () => undefined);
    const draftContext = (model as unknown as { draft: DraftModel }).draft.context;
    assert.equal(draftContext.disposed, false);
    await model.dispose();
    assert.equal(draftContext.disposed, true);
    assert.equal(draftContext.model.disposed, true);
  });
});

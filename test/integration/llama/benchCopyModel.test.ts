// The copy model at the benchmark model's size (make-fixtures.mjs BENCH_COPY, issue 30 item 2): the
// input-lookup bench's figures mean something only if this model, with Qwen2.5-0.5B's shape and the
// real Qwen2 vocabulary, gives the tiny copy fixture's greedy answer, and input lookup finds it in a
// prompt that holds it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import type { RoundStats } from "../../../sidecar/inference/llama/adapterOptions.js";
import { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { COPY_MODEL_ANSWER, ensureFixtureModels } from "../../fixtures/models.js";

const stats: RoundStats[] = [];
let model: LlamaAgentModel | undefined;
before(async () => {
  model = await LlamaAgentModel.load({
    modelPath: ensureFixtureModels({ benchCopy: true }).benchCopy,
    threads: 2,
    contextSize: 512,
    maxSessions: 1,
    batchSize: 128,
    stateStore: null,
    inputLookup: true,
    onRoundStats: (s) => stats.push(s),
  });
});
after(async () => {
  await model?.dispose();
});

const request = (sessionKey: string, user: string): GenerationRequest => ({
  sessionKey,
  messages: [
    { role: "system", text: "Repeat what you are given." },
    { role: "user", text: user },
  ],
  tools: [],
  options: { maxTokens: 40 },
  signal: new AbortController().signal,
});

describe("the benchmark-sized copy model", { timeout: 120_000 }, () => {
  it("answers the NATO alphabet, greedy, as the tiny copy fixture does, and input lookup confirms the guesses a prompt holding it offers", async () => {
    const copies = await model!.generate(request("copies", `Repeat: ${COPY_MODEL_ANSWER}`), () => undefined);
    assert.equal(copies.text, COPY_MODEL_ANSWER);
    assert.ok(stats.at(-1)!.predictedTokens.validated >= 20, `guesses confirmed: ${JSON.stringify(stats.at(-1)!.predictedTokens)}`);
    const nothing = await model!.generate(request("nothing", "Say something."), () => undefined);
    assert.equal(nothing.text, COPY_MODEL_ANSWER, "the same answer to a prompt that does not hold it");
    assert.deepEqual(stats.at(-1)!.predictedTokens, { validated: 0, refuted: 0 }, "with nothing to find, nothing is guessed");
  });
});

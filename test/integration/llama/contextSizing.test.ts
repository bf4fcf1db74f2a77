// The default context per session (issue 13, item 4): the model's trained context, as far as the free
// memory holds every session's KV cache, computed by node-llama-cpp from the model's shape.
import assert from "node:assert/strict";
import { test } from "node:test";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { chooseContextSize, MAX_DEFAULT_CONTEXT_SIZE, MIN_CONTEXT_SIZE } from "../../../sidecar/inference/llama/contextSizing.js";
import { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

test("with memory to spare the default context is the model's trained context, not a fixed 4096; a set size overrides it (issue 13, item 4)", async () => {
  const paths = ensureFixtureModels();
  const auto = await LlamaAgentModel.load({ modelPath: paths.chat, threads: 1, stateStore: null });
  try {
    assert.equal(auto.contextSize, 8192, "the fixture is trained for 8192 tokens");
    const m = await auto.measure({ sessionKey: "s", messages: [{ role: "user", text: "hello" }], tools: [], options: {} });
    assert.equal(m.contextSize, 8192);
    assert.ok(m.promptTokens > 0 && m.promptTokens < 50, JSON.stringify(m));
  } finally {
    await auto.dispose();
  }
  const set = await LlamaAgentModel.load({ modelPath: paths.chat, threads: 1, stateStore: null, contextSize: 2048 });
  assert.equal(set.contextSize, 2048);
  await set.dispose();
});

test("a memory budget too small for the trained context halves it until every session's KV cache fits (issue 13, item 4)", async () => {
  const llama = await getLlama({ build: "never", gpu: false, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: ensureFixtureModels().chat });
  try {
    const kvBytesOf = async (contextSize: number) =>
      (await model.fileInsights.estimateContextResourceRequirementsV2({ contextSize, modelGpuLayers: 0, sequences: 4, batchSize: 128 }))
        .cpuRam;
    const full = await kvBytesOf(8192);
    const quarter = await kvBytesOf(2048);
    assert.ok(full > quarter * 2, `KV memory grows with the context: ${full} vs ${quarter}`);
    assert.equal((await chooseContextSize(8192, full, kvBytesOf)).contextSize, 8192);
    assert.equal((await chooseContextSize(8192, full - 1, kvBytesOf)).contextSize, 4096);
    assert.equal((await chooseContextSize(8192, 1, kvBytesOf)).contextSize, MIN_CONTEXT_SIZE, "never below the minimum");
    assert.equal((await chooseContextSize(131_072, Number.MAX_SAFE_INTEGER, kvBytesOf)).contextSize, MAX_DEFAULT_CONTEXT_SIZE);
  } finally {
    await model.dispose();
    await llama.dispose();
  }
});

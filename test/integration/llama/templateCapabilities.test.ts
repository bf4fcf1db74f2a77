// What a model can do is read from its exact GGUF chat template, not from the wrapper class that
// renders it (harness #20): real published templates on tiny synthetic weights (test/fixtures/templates/).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ModelCapabilities } from "../../../sidecar/agent/ports/model.js";
import { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const EXPECTED: Record<string, { wrapper: string; capabilities: ModelCapabilities }> = {
  // Tools and a system role; no thinking at all, so neither a toggle nor reasoning to keep.
  qwen25: {
    wrapper: "Qwen",
    capabilities: { systemRole: "proven", toolCalls: "proven", reasoningHistory: "disproven", thinkingToggle: "disproven" },
  },
  // The enable_thinking switch; reasoning is kept only after the last user message.
  qwen3: {
    wrapper: "Qwen",
    capabilities: { systemRole: "proven", toolCalls: "proven", reasoningHistory: "disproven", thinkingToggle: "proven" },
  },
  // JSON tool calls in the ipython environment, rendered by the Llama 3.1 wrapper.
  llama32: {
    wrapper: "Llama 3.1",
    capabilities: { systemRole: "proven", toolCalls: "proven", reasoningHistory: "disproven", thinkingToggle: "disproven" },
  },
  // No tools in the template: tool calls are disproven, not left to the generic function-calling text.
  chatml: {
    wrapper: "ChatML",
    capabilities: { systemRole: "proven", toolCalls: "disproven", reasoningHistory: "disproven", thinkingToggle: "disproven" },
  },
};

for (const [name, want] of Object.entries(EXPECTED)) {
  test(`harness #20: capabilities come from the exact chat template: ${name}`, async () => {
    const model = await LlamaAgentModel.load({
      modelPath: ensureFixtureModels().templates[name as keyof ReturnType<typeof ensureFixtureModels>["templates"]],
      threads: 1,
      gpu: false,
      contextSize: 256,
      maxSessions: 1,
    });
    try {
      assert.equal(model.wrapperName, want.wrapper);
      assert.deepEqual(model.capabilities, want.capabilities);
    } finally {
      await model.dispose();
    }
  });
}

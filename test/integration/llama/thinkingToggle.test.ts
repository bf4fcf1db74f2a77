// The thinking option reaches the prompt (harness #15, #20; issue 11 item 2): on the synthetic model
// with Qwen3's template (its enable_thinking switch), `thinking: "off"` renders the template's closed empty thought before the
// answer and `"on"` does not, through the adapter's real generate path.
import assert from "node:assert/strict";
import { it } from "node:test";
import { llamaModelForFile } from "../../support/llamaModel.js";
import { QwenChatWrapper } from "node-llama-cpp";
import type { GenerationOptions } from "../../../shared/protocol/index.js";
import type { RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { thinkingWrapper } from "../../../sidecar/inference/llama/thinking.js";

const stats: RoundStats[] = [];
const llama = llamaModelForFile((paths) => ({
  modelPath: paths.templates.qwen3,
  threads: 1,
  gpu: false,
  contextSize: 512,
  maxSessions: 2,
  onRoundStats: (s) => stats.push(s),
}));

async function promptTokensWith(thinking: GenerationOptions["thinking"], sessionKey: string): Promise<number> {
  await llama.model.generate(
    {
      sessionKey,
      messages: [{ role: "user", text: "hello there" }],
      tools: [],
      options: { maxTokens: 1, ...(thinking ? { thinking } : {}) },
      signal: new AbortController().signal,
    },
    () => undefined,
  );
  return stats.at(-1)!.promptTokens;
}

it("thinking on/off changes the rendered prompt on a template with a proven toggle (harness #15 #20, issue 11 item 2)", async () => {
  assert.equal(llama.model.wrapperName, "Qwen");
  assert.equal(llama.model.capabilities.thinkingToggle, "proven");
  const on = await promptTokensWith("on", "s-on");
  const off = await promptTokensWith("off", "s-off");
  const auto = await promptTokensWith(undefined, "s-on");
  assert.ok(off > on, `off renders the closed empty thought: off ${off} tokens, on ${on}`);
  assert.equal(auto, on, "auto keeps the template's own default");
});

it("the on/off wrapper variants differ from the base only in the thought (issue 11 item 2)", () => {
  const base = new QwenChatWrapper();
  const render = (w: QwenChatWrapper | ReturnType<typeof thinkingWrapper>) =>
    w
      .generateContextState({
        chatHistory: [
          { type: "user", text: "hi" },
          { type: "model", response: [] },
        ],
      })
      .contextText.toString();
  assert.equal(thinkingWrapper(base, "auto"), base);
  assert.equal(thinkingWrapper(base, "on"), base, "the base already opens thoughts");
  assert.equal(render(thinkingWrapper(base, "off")), `${render(base)}<think>\n\n</think>\n\n`);
});

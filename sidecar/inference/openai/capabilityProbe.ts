// harness #20 for an OpenAI-compatible server: what its chat template can do is not observable
// from the API, so three tiny requests at load prove or disprove it instead of guessing (issue 11,
// item 5). Unknown would fail closed in the harness; a probe turns it into an answer.
import type { Capability, ModelCapabilities } from "../../agent/ports/model.js";

export type CompletionMessage = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { function?: { name?: string } }[];
};

/** Sends one non-streamed completion; a 400/422 refusal comes back as its status. */
export type Complete = (body: Record<string, unknown>) => Promise<CompletionMessage | { refusedStatus: number }>;

export const PROBE_TOOL = "hearth_probe";

const TOOL_PROBE = {
  messages: [{ role: "user", content: `Call the ${PROBE_TOOL} tool now.` }],
  tools: [
    {
      type: "function",
      function: { name: PROBE_TOOL, description: "Answers the capability probe.", parameters: { type: "object", properties: {} } },
    },
  ],
  // "required" asks a server with tool calls for one. Not every server forces it (llama-server of
  // node-llama-cpp's bundle does not with a Qwen2.5 template), so a model that answers in text
  // disproves tool calls: fail closed (test/integration/openai/adapterStream.test.ts).
  tool_choice: "required",
  max_tokens: 64,
};

const thinkingProbe = (enable: boolean) => ({
  messages: [{ role: "user", content: "Say OK." }],
  chat_template_kwargs: { enable_thinking: enable },
  max_tokens: 24,
});

export async function probeCapabilities(complete: Complete): Promise<ModelCapabilities> {
  const tools = await complete(TOOL_PROBE);
  const [on, off] = [await complete(thinkingProbe(true)), await complete(thinkingProbe(false))];
  return {
    systemRole: "proven", // the chat completions API has a system role of its own
    toolCalls: toolCallsFrom(tools),
    // Nothing in the API shows whether the template replays reasoning: unknown defers (no stripping).
    reasoningHistory: "unknown",
    thinkingToggle: thinks(on) && !thinks(off) && !("refusedStatus" in off) ? "proven" : "disproven",
  };
}

/** Proven by a call to the probe tool; disproven by a refusal or an answer without it. */
function toolCallsFrom(reply: CompletionMessage | { refusedStatus: number }): Capability {
  if ("refusedStatus" in reply) return "disproven";
  return (reply.tool_calls ?? []).some((c) => c.function?.name === PROBE_TOOL) ? "proven" : "disproven";
}

/** Reasoning in its own field, or a think block the server left in the content. */
function thinks(reply: CompletionMessage | { refusedStatus: number }): boolean {
  if ("refusedStatus" in reply) return false;
  return Boolean(reply.reasoning_content || reply.reasoning || /<think>\s*\S/.test(reply.content ?? ""));
}

// What the model can do, reported for harness #20 so the harness can adapt (fold system text into
// the user turn, drop reasoning from history) instead of guessing. Read from the exact chat template
// in the GGUF: the wrapper that renders it says how, the template says whether the model was trained
// to do it. A model without a template proves nothing the wrapper cannot rule out.
import { QwenChatWrapper, type ChatWrapper } from "node-llama-cpp";
import type { Capability, ModelCapabilities } from "../../agent/ports/model.js";

// Wrappers (by node-llama-cpp's wrapperName) that render tool calls in the syntax the model family
// was trained on; others fall back to node-llama-cpp's generic function-calling text.
const NATIVE_TOOL_SYNTAX = new Set([
  "Qwen",
  "Llama 3.1",
  "Llama 3.2 lightweight",
  "Functionary",
  "Mistral",
  "DeepSeek",
  "Harmony",
  "Seed",
  "Gemma 4",
]);

/** What the template's own text shows it handles. */
function templateEvidence(template: string) {
  return {
    // It takes the tool list and renders a model's tool calls.
    tools: /\btools\b/.test(template) && /\btool_calls?\b/.test(template),
    // It renders a system message, by name or as any role it writes out (ChatML), rather than
    // refusing one (Gemma: raise_exception('System role not supported')).
    system: /\bsystem\b|message\[['"]role['"]\]|message\.role\b/.test(template) && !/raise_exception\([^)]*system/i.test(template),
    thinking: /<think>|reasoning_content|\bthinking\b/.test(template),
    // The switch the adapter drives (thinking.ts): Qwen3's enable_thinking.
    thinkingSwitch: /\benable_thinking\b/.test(template),
  };
}

export function capabilitiesOf(wrapper: ChatWrapper, template: string | null): ModelCapabilities {
  const s = wrapper.settings;
  const thought = s.segments?.thought;
  const keepsOnlyLastThought = wrapper instanceof QwenChatWrapper && wrapper.keepOnlyLastThought;
  const t = template === null ? null : templateEvidence(template);
  const given = (shown: boolean | undefined, proven: Capability): Capability =>
    shown === undefined ? "unknown" : shown ? proven : "disproven";
  return {
    systemRole: s.supportsSystemMessages ? given(t?.system, "proven") : "disproven",
    toolCalls: given(t?.tools, NATIVE_TOOL_SYNTAX.has(wrapper.wrapperName) ? "proven" : "unknown"),
    reasoningHistory: thought == null || keepsOnlyLastThought ? "disproven" : given(t?.thinking, "proven"),
    thinkingToggle: thought == null ? "disproven" : given(t?.thinkingSwitch, wrapper instanceof QwenChatWrapper ? "proven" : "unknown"),
  };
}

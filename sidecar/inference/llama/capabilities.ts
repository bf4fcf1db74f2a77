// What the resolved chat wrapper can do, reported for harness #20 so the harness can adapt
// (fold system text into the user turn, drop reasoning from history) instead of guessing.
import { QwenChatWrapper, type ChatWrapper } from "node-llama-cpp";
import type { ModelCapabilities } from "../../agent/ports/model.js";

// Wrappers that render tool calls in the syntax the model family was trained on; others fall back
// to node-llama-cpp's generic function-calling text, which a model may or may not follow.
const NATIVE_TOOL_SYNTAX = new Set([
  "Qwen",
  "Llama3_1",
  "Llama3_2Lightweight",
  "Functionary",
  "Mistral",
  "DeepSeek",
  "Harmony",
  "Seed",
  "Gemma4",
]);

export function capabilitiesOf(wrapper: ChatWrapper): ModelCapabilities {
  const s = wrapper.settings;
  const thought = s.segments?.thought;
  const keepsOnlyLastThought = wrapper instanceof QwenChatWrapper && wrapper.keepOnlyLastThought;
  return {
    systemRole: s.supportsSystemMessages ? "proven" : "disproven",
    toolCalls: NATIVE_TOOL_SYNTAX.has(wrapper.wrapperName) ? "proven" : "unknown",
    reasoningHistory: thought == null ? "disproven" : keepsOnlyLastThought ? "disproven" : "proven",
    thinkingToggle: thought == null ? "disproven" : wrapper instanceof QwenChatWrapper ? "proven" : "unknown",
  };
}

// The thinking option (harness #15, #20) reaches the prompt through the chat wrapper's own switch:
// QwenChatWrapper's `thoughts` ("discourage" closes an empty thought before the answer, "auto"
// opens one at the start of the response). A wrapper without such a switch is returned as is: its
// capabilities report no proven toggle, so the harness refuses "on" and "off" before they get here.
import { QwenChatWrapper, type ChatWrapper } from "node-llama-cpp";
import type { GenerationOptions } from "../../../shared/protocol/index.js";
import { leanQwenWrapper } from "./leanToolDocs.js";

type Thinking = GenerationOptions["thinking"];

/** The wrapper a round renders with: `base` for auto (or unset), a same-template variant for on/off. */
export function thinkingWrapper(base: ChatWrapper, thinking: Thinking): ChatWrapper {
  if (!(base instanceof QwenChatWrapper) || thinking === undefined || thinking === "auto") return base;
  const thoughts = thinking === "on" ? "auto" : "discourage";
  if (base.thoughts === thoughts) return base;
  return leanQwenWrapper(base, thoughts);
}

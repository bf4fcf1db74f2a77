// The request a model round sends (harness #5, #20): one place for a turn's rounds and for the prefix
// evaluated ahead of the next turn (issue 30), so the prompt prepared in idle time is the one the
// turn renders.
import type { GenerationOptions } from "../../shared/protocol/index.js";
import { toModelMessages } from "./generationPolicy.js";
import { calledToolNames } from "./historyReplay.js";
import type { AgentMessage } from "./messages.js";
import type { GenerationRequest } from "./ports/model.js";
import type { ToolCeiling } from "./toolCeiling.js";

export interface RoundRequestParts {
  readonly sessionKey: string;
  readonly ceiling: ToolCeiling;
  readonly options: GenerationOptions;
  readonly stripReasoning: boolean;
}

export type RoundRequestOf = (messages: AgentMessage[]) => Omit<GenerationRequest, "signal">;

/** Requests over any messages, offering the active tools plus the disabled ones that `seen` called (replay). */
export function roundRequests(parts: RoundRequestParts, seen: readonly AgentMessage[]): RoundRequestOf {
  const tools = parts.ceiling.advertised(calledToolNames(seen));
  return (messages) => ({
    sessionKey: parts.sessionKey,
    messages: toModelMessages(messages, parts.stripReasoning),
    tools,
    options: parts.options,
  });
}

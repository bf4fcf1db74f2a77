// Generation options and model capabilities (harness #15, #20). Session options are the base;
// fields a turn sets override them, unset fields keep session values. Capability checks fail
// closed before anything is journaled; reasoning never reaches a model that cannot keep it.
import { ErrorCode, HearthError } from "../../shared/errors.js";
import type { GenerationOptions } from "../../shared/protocol/index.js";
import type { AgentMessage } from "./messages.js";
import type { ModelCapabilities, ModelMessage } from "./ports/model.js";

export function mergeOptions(base: GenerationOptions, turn: GenerationOptions | undefined): GenerationOptions {
  const merged: GenerationOptions = { ...base };
  for (const [k, v] of Object.entries(turn ?? {})) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return merged;
}

export interface CapabilityNeeds {
  readonly options: GenerationOptions;
  readonly hasSystemMessage: boolean;
  readonly hasTools: boolean;
}

/**
 * Throws when configured or resumed state needs a capability the model did not prove (harness #20:
 * fail closed; an unknown capability is not a proven one). Thinking "on" or "off" needs a proven
 * toggle, since a template without one would silently ignore it; "auto" needs nothing.
 */
export function assertCapabilities(caps: ModelCapabilities, needs: CapabilityNeeds): void {
  const missing: string[] = [];
  const thinking = needs.options.thinking;
  if ((thinking === "on" || thinking === "off") && caps.thinkingToggle !== "proven") {
    missing.push(`thinking "${thinking}" needs a proven thinking toggle (the model's is ${caps.thinkingToggle}); use thinking "auto"`);
  }
  if (needs.hasSystemMessage && caps.systemRole !== "proven") {
    missing.push(`a system prompt needs a proven system role (this model's is ${caps.systemRole}); choose a model whose template has one`);
  }
  if (needs.hasTools && caps.toolCalls !== "proven") {
    missing.push(
      `tools need a model whose tool calls are proven (this model's are ${caps.toolCalls}); choose a model whose ` +
        `template has tool calls, or build the session without tools`,
    );
  }
  if (missing.length > 0) throw new HearthError(ErrorCode.Refused, `refused before running: ${missing.join("; ")}`);
}

/** harness #20: disproven reasoning-history preservation strips reasoning; unknown defers. */
export function stripsReasoning(caps: ModelCapabilities): boolean {
  return caps.reasoningHistory === "disproven";
}

/** History → request messages, with reasoning removed when the model cannot keep it. */
export function toModelMessages(history: readonly AgentMessage[], strip: boolean): ModelMessage[] {
  return history.map((m): ModelMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, text: m.text };
      case "assistant": {
        const calls = m.toolCalls.map((c) => ({ callId: c.callId, name: c.name, arguments: c.arguments }));
        return strip || m.reasoning === undefined
          ? { role: "assistant", text: m.text, toolCalls: calls }
          : { role: "assistant", text: m.text, reasoning: m.reasoning, toolCalls: calls };
      }
      case "tool":
        return { role: "tool", callId: m.callId, name: m.name, output: m.output };
    }
  });
}

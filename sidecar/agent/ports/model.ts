// The model port (harness #1): the turn loop talks to any engine (node-llama-cpp, an
// OpenAI-compatible server, the scripted replay) only through this interface.
import type { GenerationOptions } from "../../../shared/protocol/index.js";
import type { ContextMeasure } from "./context.js";
import type { ObjectSchema } from "./jsonSchema.js";

export type Capability = "proven" | "disproven" | "unknown";

/** What the resolved chat template can do (harness #20). */
export interface ModelCapabilities {
  systemRole: Capability;
  toolCalls: Capability;
  reasoningHistory: Capability;
  thinkingToggle: Capability;
}

export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: ObjectSchema;
}

/** A message as sent to the model. Call ids here are kernel-minted, never the provider's. */
export type ModelMessage =
  | { role: "system"; text: string }
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; reasoning?: string; toolCalls: { callId: string; name: string; arguments: unknown }[] }
  | { role: "tool"; callId: string; name: string; output: string };

export interface GenerationRequest {
  /** Stable per session: lets an engine keep a session's KV cache across rounds and turns. */
  sessionKey: string;
  messages: ModelMessage[];
  tools: ModelToolDefinition[];
  options: GenerationOptions;
  signal: AbortSignal;
}

/** A streamed piece of one model round. Presentation only; the terminal round is the truth. */
export type ModelChunk =
  | { type: "answer"; text: string }
  | { type: "reasoning"; text: string }
  /** The model began writing a tool call (issue 25 item 4: a sign of it before its arguments are done). */
  | { type: "tool_call_started"; index: number; name: string }
  /** The model wrote `chars` more characters of call `index`'s arguments (the view counts the tokens it spends on them). */
  | { type: "tool_call_args"; index: number; chars: number };

/** A tool call as the provider proposed it: name and arguments are untrusted (harness #4, #5). */
export interface ProposedToolCall {
  name: string;
  arguments: unknown;
  providerCallId?: string;
}

export interface ModelRound {
  text: string;
  reasoning: string;
  toolCalls: ProposedToolCall[];
  stopReason: "end" | "tool_calls" | "max_tokens" | "cancelled";
}

/** What a prefill evaluated (issue 30): the prefix it prepared, what the cache held of it already, what it added. */
export interface PrefillResult {
  prefixTokens: number;
  reusedTokens: number;
  evaluatedTokens: number;
}

export interface AgentModel {
  readonly adapter: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  /**
   * Runs one model round. Contract (harness #18, #22):
   * - resolves or rejects only after every piece of inference work for this request has stopped
   *   (the completion barrier), so nothing outlives the returned promise;
   * - honours `request.signal`: on abort it stops and rejects with the signal's reason;
   * - if `onChunk` throws, it stops generation and rejects with that error.
   */
  generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound>;
  /**
   * For an engine whose round answers an abort before its native work has ended (llama: a started
   * prompt batch runs to its end, the session stays locked until then): resolves once none of the
   * session's work runs. The kernel acknowledges a cancel only after it (harness #18, #22).
   */
  settled?(sessionKey: string): Promise<void>;
  /**
   * Counts the prompt a request would render to, against the session's context (issue 13). Engines
   * that cannot count leave it out: their sessions are never condensed before a round.
   */
  measure?(request: Omit<GenerationRequest, "signal">): Promise<ContextMeasure>;
  /**
   * Evaluates into the session's cache the prompt its next round begins with when a user message
   * follows `request.messages`, generating nothing (issue 30: in idle time, after condensing ahead).
   * It changes no request: the next round renders its prompt exactly as without it, and only evaluates
   * less. On abort it rejects at once; a native batch in flight ends before the session's next round
   * starts, and what was evaluated stays in the cache. Engines without a cache of their own leave it out.
   */
  prefill?(request: GenerationRequest): Promise<PrefillResult>;
}

// Committed history as the harness sees it: the protocol's HistoryMessage without the journal's
// sequence number. These are the durable message boundaries of harness #7.
import type { ToolCallRecord, ToolResultKind } from "../../shared/protocol/index.js";

export type SystemMessage = { role: "system"; text: string };
export type UserMessage = { role: "user"; text: string };
export type AssistantMessage = { role: "assistant"; text: string; reasoning?: string; toolCalls: ToolCallRecord[] };
/** `resultKind`: the harness sets it on every result it makes; a journal keeps it as a typed field (issue 22, item 3). */
export type ToolResultMessage = { role: "tool"; callId: string; name: string; ok: boolean; output: string; resultKind?: ToolResultKind };
export type AgentMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

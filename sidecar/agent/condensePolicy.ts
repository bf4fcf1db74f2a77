// What condensing keeps, elides and summarises (issue 13, item 3), as pure functions over committed
// history. The system prompt and the most recent turns are never touched; older tool outputs are
// elided biggest first (oldest first among equals), with a marker that says how to get them back;
// older turns are replaced by one summary message.
import type { AgentMessage, ToolResultMessage, UserMessage } from "./messages.js";
import type { CondensedView } from "./ports/context.js";

/** Outputs shorter than this are not worth a marker. */
export const ELIDE_MIN_CHARS = 300;
/** One line of the transcript a summary is written from. */
const TRANSCRIPT_LINE_CHARS = 600;
/** A summary longer than this is cut: it must stay small next to the turns it replaces. */
export const SUMMARY_MAX_CHARS = 4000;

export const SUMMARY_INSTRUCTIONS =
  "You condense a coding assistant's conversation so it can continue in a small context. Write a short summary " +
  "of what the user asked, what was found or changed (files, commands, results) and what is still open. " +
  "Plain sentences, no preamble.";

/** The messages the model sees for `history` under `view`. */
export function viewOf(history: readonly AgentMessage[], view: CondensedView): AgentMessage[] {
  const elided = new Set(view.elidedCallIds);
  const calls = callsById(history);
  const kept = history
    .slice(view.replacedCount)
    .map((m) => (m.role === "tool" && elided.has(m.callId) ? elide(m, calls.get(m.callId)) : m));
  return view.summary === null ? kept : [summaryMessage(view.summary, view.replacedCount), ...kept];
}

export function summaryMessage(summary: string, replacedCount: number): UserMessage {
  return {
    role: "user",
    text:
      `[Summary of the ${replacedCount} earlier messages of this conversation, condensed by Hearth to fit the ` +
      `context; the full text stays in the session's journal]\n${summary}`,
  };
}

function elide(m: ToolResultMessage, args: unknown): ToolResultMessage {
  const how = args === undefined ? `call ${m.name} again` : `call ${m.name} again with ${JSON.stringify(args)}`;
  return { ...m, output: `[${m.output.length} characters of ${m.name} output elided by Hearth to fit the context; ${how} to see it]` };
}

function callsById(history: readonly AgentMessage[]): Map<string, unknown> {
  const calls = new Map<string, unknown>();
  for (const m of history) if (m.role === "assistant") for (const c of m.toolCalls) calls.set(c.callId, c.arguments);
  return calls;
}

/** Tool outputs before `keepFrom` that may be elided, in the order to elide them. */
export function elisionCandidates(history: readonly AgentMessage[], view: CondensedView, keepFrom: number): string[] {
  const elided = new Set(view.elidedCallIds);
  return history
    .map((m, index) => ({ m, index }))
    .filter(
      (x): x is { m: ToolResultMessage; index: number } =>
        x.index >= view.replacedCount &&
        x.index < keepFrom &&
        x.m.role === "tool" &&
        !elided.has(x.m.callId) &&
        x.m.output.length >= ELIDE_MIN_CHARS,
    )
    .sort((a, b) => b.m.output.length - a.m.output.length || a.index - b.index)
    .map((x) => x.m.callId);
}

/** Where the turns that stay verbatim begin: the previous turn and the current one, or the current one only. */
export function recentTurnStarts(history: readonly AgentMessage[], turnStart: number): number[] {
  const previous = history.slice(0, turnStart).findLastIndex((m) => m.role === "user");
  return previous >= 0 && previous < turnStart ? [previous, turnStart] : [turnStart];
}

/** A view whose summary covers history up to `keep` (exclusive); elisions before it are moot. */
export function summarisedView(history: readonly AgentMessage[], view: CondensedView, summary: string, keep: number): CondensedView {
  const before = new Set(history.slice(0, keep).flatMap((m) => (m.role === "tool" ? [m.callId] : [])));
  return {
    summary: summary.slice(0, SUMMARY_MAX_CHARS),
    replacedCount: keep,
    elidedCallIds: view.elidedCallIds.filter((id) => !before.has(id)),
  };
}

/** One line per message, each bounded, for the summary request. */
export function transcriptLines(messages: readonly AgentMessage[]): string[] {
  const clip = (s: string) => (s.length > TRANSCRIPT_LINE_CHARS ? `${s.slice(0, TRANSCRIPT_LINE_CHARS)}…` : s).replace(/\s+/g, " ");
  return messages.map((m) => {
    switch (m.role) {
      case "system":
      case "user":
        return clip(`${m.role}: ${m.text}`);
      case "assistant":
        return clip(`assistant: ${m.text}${m.toolCalls.map((c) => ` [called ${c.name} ${JSON.stringify(c.arguments)}]`).join("")}`);
      case "tool":
        return clip(`${m.name} ${m.ok ? "returned" : "failed"}: ${m.output}`);
    }
  });
}

export function summaryPrompt(prior: string | null, lines: readonly string[]): string {
  return `${prior ? `Summary so far:\n${prior}\n\n` : ""}Conversation to add to the summary:\n${lines.join("\n")}\n\nWrite the updated summary.`;
}

/** When the model writes no summary: the user's requests, so the gist is never lost. */
export function fallbackSummary(prior: string | null, lines: readonly string[]): string {
  const asked = lines.filter((l) => l.startsWith("user: ")).map((l) => `- ${l.slice(6, 200)}`);
  return [prior, asked.length > 0 ? `Earlier requests:\n${asked.join("\n")}` : "Earlier tool work without new requests."]
    .filter(Boolean)
    .join("\n");
}

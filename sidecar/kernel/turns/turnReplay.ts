// What a running turn has streamed so far, kept so a client that follows it midway (turn/follow,
// a window reload) can show the whole turn: its uncommitted text exists nowhere else. Adjacent
// deltas are joined, so the record grows with the turn's text, not with its number of tokens.
// Once the turn ends, the same record says what it streamed that never committed (issue 25 item 11).
import type { RunEnding, TurnEvent } from "../../../shared/protocol/index.js";

export function recordEvent(sent: TurnEvent[], event: TurnEvent): void {
  const last = sent.at(-1);
  if (last && (event.type === "answer_delta" || event.type === "reasoning_delta") && last.type === event.type) {
    sent[sent.length - 1] = { type: event.type, text: last.text + event.text };
    return;
  }
  sent.push(event);
}

/**
 * The answer text the turn's last round streamed after its last tool call or result: on a turn that
 * did not complete, no journaled message holds it (the round never committed), yet the person saw it.
 */
export function unfinishedAnswer(sent: readonly TurnEvent[]): string {
  let text = "";
  for (const e of sent) {
    if (e.type === "tool_call" || e.type === "tool_result") text = "";
    else if (e.type === "answer_delta") text += e.text;
  }
  return text;
}

/** How the turn ended, for a view that reads the chat again; undefined for a plain completion. */
export function runEndingOf(completed: Extract<TurnEvent, { type: "completed" }>, sent: readonly TurnEvent[]): RunEnding | undefined {
  if (completed.status === "completed" && !completed.stoppedAtTokenCap) return undefined;
  const unfinished = completed.status === "completed" ? "" : unfinishedAnswer(sent);
  return {
    status: completed.status,
    ...(completed.error ? { message: completed.error.message } : {}),
    ...(completed.stoppedAtTokenCap ? { stoppedAtTokenCap: true as const } : {}),
    ...(unfinished.trim() ? { unfinishedAnswer: unfinished } : {}),
    ...(completed.tooLong ? { tooLong: completed.tooLong } : {}),
  };
}

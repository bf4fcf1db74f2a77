// What a running turn has streamed so far, kept so a client that follows it midway (turn/follow,
// a window reload) can show the whole turn: its uncommitted text exists nowhere else. Adjacent
// deltas are joined, so the record grows with the turn's text, not with its number of tokens.
import type { TurnEvent } from "../../../shared/protocol/index.js";

export function recordEvent(sent: TurnEvent[], event: TurnEvent): void {
  const last = sent.at(-1);
  if (last && (event.type === "answer_delta" || event.type === "reasoning_delta") && last.type === event.type) {
    sent[sent.length - 1] = { type: event.type, text: last.text + event.text };
    return;
  }
  sent.push(event);
}

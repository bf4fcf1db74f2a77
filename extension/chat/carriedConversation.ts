// A chat that cannot go on as it was (its tools or folder changed since it began: authority drift,
// harness #19) continues in a new chat that carries its conversation (issue 25, item 2): the
// person's messages and Hearth's answers as plain text, the calls it made named, the newest kept
// when it is long. It goes with the new chat's first message, as a chip the person sees and can remove.
import type { HistoryMessage } from "../../shared/protocol/index.js";

/** About 4,000 tokens: room for the new chat's own work in an 8k context. */
export const CARRIED_MAX_CHARS = 16_000;

/**
 * The most one message takes of the carried text: a big paste is cut to its start, so it does not
 * push every message before it out of the budget.
 */
const MAX_MESSAGE_SHARE = 4;

/** The conversation as the new chat's model reads it; null when there is nothing to carry. */
export function carriedConversation(messages: readonly HistoryMessage[], maxChars = CARRIED_MAX_CHARS): string | null {
  const turns: string[] = [];
  const cut = (turn: string): string => {
    const max = Math.floor(maxChars / MAX_MESSAGE_SHARE);
    if (turn.length <= max) return turn;
    return `${turn.slice(0, max)} … [${(turn.length - max).toLocaleString("en-US")} more characters not carried]`;
  };
  for (const m of messages) {
    if (m.role === "user") turns.push(cut(`Person: ${m.text}`));
    else if (m.role === "assistant") {
      const calls = m.toolCalls.map((c) => c.name);
      const parts = [m.text.trim(), calls.length ? `(called ${calls.join(", ")})` : ""].filter(Boolean);
      if (parts.length) turns.push(cut(`Hearth: ${parts.join(" ")}`));
    }
  }
  if (turns.length === 0) return null;
  const head = "The conversation so far, from an earlier chat:";
  const kept: string[] = [];
  let size = head.length;
  for (const turn of turns.reverse()) {
    if (size + turn.length + 2 > maxChars) {
      kept.push("(earlier messages left out)");
      break;
    }
    kept.push(turn);
    size += turn.length + 2;
  }
  return [head, ...kept.reverse()].join("\n\n");
}

// What a person can do about a failed turn, next to it (issue 15). A message too long for the model
// goes back in the box, cut to fit or whole to edit (issue 25 item 8): compacting cannot make room for
// a message that does not fit alone. Other failures get their kind's buttons, Compact only where the
// chat has an earlier turn to condense.
import type { MessageTooLong } from "../shared/protocol/records.js";
import { button } from "./components/index.js";
import { el } from "./dom.js";
import { classifyTurnError, errorActions, type ViewActions } from "./errorActions.js";
import type { Completed } from "./turnStatus.js";

export interface FailedTurn {
  /** The person's message as sent; null for a turn this view followed without seeing it sent. */
  sent: string | null;
  /** Whether the chat had a turn before this one (something Compact could condense). */
  earlierTurns: boolean;
}

/** Puts a refused message back in the box, cut to the room the model measured when `trim`. */
export type PutBack = (message: string, tooLong: MessageTooLong, trim: boolean) => void;

export function failureActions(event: Completed, turn: FailedTurn, actions: ViewActions, putBack: PutBack): HTMLElement {
  const { tooLong } = event;
  const sent = turn.sent;
  if (tooLong && sent !== null) {
    const row = el("div", "error-actions", undefined, "error-actions");
    row.append(
      button("Put back the part that fits", () => putBack(sent, tooLong, true), { testId: "action-put-back-trimmed" }),
      button("Put it back in the box", () => putBack(sent, tooLong, false), { secondary: true, testId: "action-put-back" }),
    );
    return row;
  }
  const kind = tooLong ? "turn" : classifyTurnError(event.error?.message ?? "");
  return errorActions(kind, actions, { canCompact: turn.earlierTurns });
}

// Exactly one answer per approval request (harness #8: one-shot): whichever of the card, the
// notification, the editor's lenses or the turn's cancellation comes first is the answer; later
// ones are ignored and say so. No `vscode` import, so it is unit-tested.
import type { ServerRequestResult } from "../../shared/protocol/index.js";
import { MAX_REASON_CHARS, singleLine } from "../../shared/boundedText.js";

export type Answer = ServerRequestResult<"approval/request">;

/** What the request says when the turn ends before anyone answered. */
export const CANCELLED: Answer = { decision: "deny", reason: "cancelled: the turn ended before anyone answered" };

export class OneAnswer {
  readonly promise: Promise<Answer>;
  private resolve!: (answer: Answer) => void;
  private answer: Answer | undefined;

  /** `onSettled` runs once, with the answer, whoever gave it (clean-up: lenses, cards, documents). */
  constructor(
    signal: AbortSignal,
    private readonly onSettled: (answer: Answer) => void,
  ) {
    this.promise = new Promise((resolve) => (this.resolve = resolve));
    // An unanswered request waits; only the turn's end (the kernel withdrawing it) settles it unasked.
    if (signal.aborted) this.settle(CANCELLED);
    else signal.addEventListener("abort", () => this.settle(CANCELLED), { once: true });
  }

  get settled(): boolean {
    return this.answer !== undefined;
  }

  /** The first answer wins (true); a later one changes nothing (false). Reasons: one bounded line. */
  settle(answer: Answer): boolean {
    if (this.answer) return false;
    this.answer = {
      decision: answer.decision,
      reason: singleLine(answer.reason, MAX_REASON_CHARS, answer.decision),
      // Where the person decided, journaled by the kernel with the decision (issue 24).
      ...(answer.surface ? { surface: answer.surface } : {}),
      // The person also asked for the offered workspace rule (issue 27: "Always allow … in this folder").
      ...(answer.decision === "approve" && answer.alwaysAllow === true ? { alwaysAllow: true } : {}),
    };
    this.resolve(this.answer);
    this.onSettled(this.answer);
    return true;
  }
}

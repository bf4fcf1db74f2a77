// Loop guards (issue 13, item 2): a turn ends with its own status, "stopped", when the model keeps
// making the same failing call or asks for tools round after round without answering, instead of
// running until the context is full. What the turn committed stays as the spec says (harness #10).
import { singleLine } from "../../shared/boundedText.js";
import type { ToolCallRecord } from "../../shared/protocol/index.js";
import { canonicalJson } from "./canonicalJson.js";
import type { ToolResultMessage } from "./messages.js";
import { TurnFailed, type TurnFailure } from "./turnOutcome.js";

export interface LoopLimits {
  /** The same call (tool, canonical input) failing with the same output this many times stops the turn. */
  readonly repeatedFailures: number;
  /** Model rounds with tool calls in one turn before it is stopped. */
  readonly maxRounds: number;
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = { repeatedFailures: 3, maxRounds: 25 };

/** The failure kinds a loop guard ends a turn with; the kernel reports them as status "stopped". */
export const STOPPED_KINDS = ["repeated_failure", "round_limit"] as const;

/** True when a loop guard ended the turn (a typed fact: the kernel reports it as "stopped", never by its text). */
export function isStop(failure: Pick<TurnFailure, "kind">): boolean {
  return (STOPPED_KINDS as readonly string[]).includes(failure.kind);
}

export class LoopGuard {
  private readonly failures = new Map<string, number>();

  constructor(private readonly limits: LoopLimits) {}

  get maxRounds(): number {
    return this.limits.maxRounds;
  }

  /**
   * Counts a call's failure; throws the stop once the same call has failed the same way the set number
   * of times, in one batch or across rounds. The calls after it in its batch do not run.
   */
  afterCall(call: ToolCallRecord, result: ToolResultMessage): void {
    if (result.ok) return;
    const key = canonicalJson([call.name, call.arguments, result.output]);
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
    if (count >= this.limits.repeatedFailures) {
      // Short: it is also the result of every call of the batch that did not run (harness #6), and
      // the failing call's own result, already in history, says what went wrong.
      throw stop(
        "repeated_failure",
        `the model ${sameFailingCall(count)} (${call.name} ${JSON.stringify(call.arguments)}); rephrase the request`,
      );
    }
  }

  /** The stop for a turn that used every round without answering. */
  roundLimit(): TurnFailed {
    return stop(
      "round_limit",
      `the model asked for tools in ${this.limits.maxRounds} rounds without answering; completed tool batches stay in the session, ask it to finish`,
    );
  }
}

/** A guard's stop: the journal's reason says "stopped: …"; the detail is the same words without the label. */
function stop(kind: (typeof STOPPED_KINDS)[number], detail: string): TurnFailed {
  const words = singleLine(detail);
  return new TurnFailed(kind, `stopped: ${words}`, undefined, words);
}

/** How often the call failed, right at every limit: the count is per call, not necessarily in a row. */
function sameFailingCall(count: number): string {
  return count === 1 ? "made a failing call once" : `made the same failing call ${count} times`;
}

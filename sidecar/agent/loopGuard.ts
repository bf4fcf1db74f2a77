// Loop guards (issue 13, item 2): a turn ends with its own status, "stopped", when the model keeps
// making the same failing call or asks for tools round after round without answering, instead of
// running until the context is full. What the turn committed stays as the spec says (harness #10).
import { singleLine } from "../../shared/boundedText.js";
import type { ToolCallRecord } from "../../shared/protocol/index.js";
import { canonicalJson } from "./canonicalJson.js";
import type { ToolResultMessage } from "./messages.js";
import { TurnFailed } from "./turnOutcome.js";

export interface LoopLimits {
  /** The same call (tool, canonical input) failing with the same output this many times stops the turn. */
  readonly repeatedFailures: number;
  /** Model rounds with tool calls in one turn before it is stopped. */
  readonly maxRounds: number;
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = { repeatedFailures: 3, maxRounds: 25 };

/** The failure kinds a loop guard ends a turn with; the kernel reports them as status "stopped". */
export const STOPPED_KINDS = ["repeated_failure", "round_limit"] as const;

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
      throw new TurnFailed(
        "repeated_failure",
        singleLine(`stopped: the model ${sameFailingCall(count)} (${call.name} ${JSON.stringify(call.arguments)}); rephrase the request`),
      );
    }
  }

  /** The stop for a turn that used every round without answering. */
  roundLimit(): TurnFailed {
    return new TurnFailed(
      "round_limit",
      `stopped: the model asked for tools in ${this.limits.maxRounds} rounds without answering; completed tool batches stay in the session, ask it to finish`,
    );
  }
}

/** How often the call failed, right at every limit: the count is per call, not necessarily in a row. */
function sameFailingCall(count: number): string {
  return count === 1 ? "made a failing call once" : `made the same failing call ${count} times`;
}

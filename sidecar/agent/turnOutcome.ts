// What runTurn returns: the committed messages, or a typed failure with what stayed committed.
import { singleLine } from "../../shared/boundedText.js";
import type { MessageTooLong, TurnEvent } from "../../shared/protocol/index.js";
import type { TurnFailureKind } from "../../shared/turnFailureKinds.js";
import type { AgentMessage } from "./messages.js";

/** Presentation only (harness #18): never history. The kernel adds the terminal `completed`. */
export type AgentEvent = Exclude<TurnEvent, { type: "completed" }>;

export type { TurnFailureKind };

export interface TurnFailure {
  readonly kind: TurnFailureKind;
  /** Bounded single line: what failed, why, what to do. */
  readonly message: string;
  /** What to tell a person where the status already names the failure: a loop guard's stop without its "stopped: " label. */
  readonly detail?: string;
  /** A message_too_long failure's numbers: what a view says and trims to. */
  readonly tooLong?: MessageTooLong;
  readonly cause?: unknown;
}

export type TurnOutcome =
  | {
      readonly status: "completed";
      readonly turnId: string;
      readonly messages: AgentMessage[];
      /** The final answer reached the round's token cap: it is cut off, not finished. */
      readonly stoppedAtTokenCap?: boolean;
    }
  | {
      readonly status: "failed" | "cancelled";
      readonly turnId: string;
      readonly failure: TurnFailure;
      /** Messages this turn left committed: its tool checkpoints, possibly none (harness #10). */
      readonly messages: AgentMessage[];
    };

export class TurnFailed extends Error {
  constructor(
    readonly kind: TurnFailureKind,
    message: string,
    override readonly cause?: unknown,
    readonly detail?: string,
  ) {
    super(singleLine(message, 400));
    this.name = "TurnFailed";
  }
}

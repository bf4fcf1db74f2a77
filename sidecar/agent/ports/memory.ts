// The memory port (harness #7): what the harness asks of durable storage. The kernel implements it
// over its journal (ledger rows prepared → dispatched → succeeded|failed|outcome_unknown); the
// in-memory implementation in ../inMemoryAgentMemory.ts is for tests and headless use.
//
// Order of calls in one turn (every call awaited before the next step):
//   beginTurn → (per tool call that passes gate and approval: recordPrepared → recordDispatched →
//   effect → recordSettled) → checkpoint(batch) before each further model round → closeTurn.
// A failed turn's closeTurn carries the failure-time checkpoint (possibly empty): together with
// the terminal status it must commit in one transaction (harness #10).
//
// The turn's user message is the first message of the turn's first commit (checkpoint or
// closeTurn) and the only user message the harness ever commits; a journal that stored it when
// the run was admitted skips it there. Settlements may be buffered and committed with the batch:
// every settled call's result message is in the next checkpoint or closeTurn.
//
// Every result the harness makes says in `resultKind` whether it answers a ledger claim ("claimed")
// or why its call never reached the ledger (refused by the gate, denied, not run, stopped by a loop
// guard). A journal keeps that as a typed fact and may refuse a result whose kind disagrees with its
// ledger (control plane #8); nothing reads it back from the result's words (issue 22, item 3).
import type { EffectClass } from "../../../shared/protocol/index.js";
import type { RetryPolicy } from "./tools.js";
import type { AgentMessage, UserMessage } from "../messages.js";

export interface TurnStart {
  readonly sessionKey: string;
  readonly turnId: string;
  readonly user: UserMessage;
  /** Digest of the authority snapshot this turn runs under (harness #19). */
  readonly authorityDigest: string;
}

/** A ledger claim, journaled before the effect so a restart can tell what may have happened. */
export interface InvocationClaim {
  readonly turnId: string;
  readonly callId: string;
  readonly tool: string;
  /** The validated arguments, exactly as they will be passed to the tool. */
  readonly input: Readonly<Record<string, unknown>>;
  /** inputHashOf(input): the same hash the approval request carried. */
  readonly inputHash: string;
  readonly authorityDigest: string;
  readonly effectClass: EffectClass;
  readonly retryPolicy: RetryPolicy;
}

export type InvocationSettlement =
  | { readonly status: "succeeded" }
  | { readonly status: "failed" | "outcome_unknown"; readonly reason: string };

export type TurnClose =
  | { readonly status: "completed"; readonly messages: AgentMessage[] }
  | {
      readonly status: "failed" | "cancelled";
      /** The failure-time checkpoint: structurally complete call/result batches, or nothing. */
      readonly messages: AgentMessage[];
      readonly reason: string;
    };

export interface AgentMemory {
  /** Journals the active turn. Nothing of it is history yet. */
  beginTurn(start: TurnStart): Promise<void>;
  /** Ledger row `prepared`: gate and approval passed, nothing dispatched. */
  recordPrepared(claim: InvocationClaim): Promise<void>;
  /** `prepared → dispatched`, durable before the effect starts. */
  recordDispatched(callId: string): Promise<void>;
  /**
   * `prepared → failed` (never dispatched: cancelled or refused before the effect) or
   * `dispatched → succeeded|failed` (the tool's own ok flag, or a fault it threw).
   */
  recordSettled(callId: string, settlement: InvocationSettlement): Promise<void>;
  /**
   * Appends complete messages to committed history (the turn's user message first, then
   * assistant calls each followed by its result, in call order). Durable before the next round.
   */
  checkpoint(turnId: string, messages: AgentMessage[]): Promise<void>;
  /** Commits the last messages and the terminal status atomically. Called exactly once per turn. */
  closeTurn(turnId: string, close: TurnClose): Promise<void>;
}

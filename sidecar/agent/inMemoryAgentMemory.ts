// An in-memory AgentMemory: the harness's own reference for the port's contract (tests, headless
// use). It enforces the ledger transitions the kernel's journal enforces durably, so a harness bug
// that skips a step fails here too.
import type { AgentMessage } from "./messages.js";
import type { AgentMemory, InvocationClaim, InvocationSettlement, TurnClose, TurnStart } from "./ports/memory.js";

export type LedgerStatus = "prepared" | "dispatched" | "succeeded" | "failed" | "outcome_unknown";

const ALLOWED: Record<LedgerStatus, readonly LedgerStatus[]> = {
  prepared: ["dispatched", "failed"],
  dispatched: ["succeeded", "failed", "outcome_unknown"],
  succeeded: [],
  failed: [],
  outcome_unknown: [],
};

export interface LedgerEntry {
  claim: InvocationClaim;
  status: LedgerStatus;
  reason: string | null;
}

export class InMemoryAgentMemory implements AgentMemory {
  readonly history: AgentMessage[] = [];
  readonly ledger = new Map<string, LedgerEntry>();
  readonly turns = new Map<string, { start: TurnStart; close: TurnClose | null }>();
  private active: string | null = null;

  async beginTurn(start: TurnStart): Promise<void> {
    if (this.active) throw new Error(`turn ${this.active} is still active`);
    this.active = start.turnId;
    this.turns.set(start.turnId, { start, close: null });
  }

  async recordPrepared(claim: InvocationClaim): Promise<void> {
    this.requireActive(claim.turnId);
    if (this.ledger.has(claim.callId)) throw new Error(`call ${claim.callId} was already claimed`);
    this.ledger.set(claim.callId, { claim, status: "prepared", reason: null });
  }

  async recordDispatched(callId: string): Promise<void> {
    this.move(callId, "dispatched", null);
  }

  async recordSettled(callId: string, s: InvocationSettlement): Promise<void> {
    this.move(callId, s.status, s.status === "succeeded" ? null : s.reason);
  }

  async checkpoint(turnId: string, messages: AgentMessage[]): Promise<void> {
    this.requireActive(turnId);
    this.history.push(...structuredClone(messages));
  }

  async closeTurn(turnId: string, close: TurnClose): Promise<void> {
    this.requireActive(turnId);
    this.history.push(...structuredClone(close.messages));
    this.turns.get(turnId)!.close = close;
    this.active = null;
  }

  /** What a restart does to unfinished rows (ARCHITECTURE.md, a turn as data, step 5). */
  reconcileAfterCrash(): void {
    for (const [callId, e] of this.ledger) {
      if (e.status === "prepared") this.move(callId, "failed", "the kernel stopped before dispatch");
      else if (e.status === "dispatched") this.move(callId, "outcome_unknown", "the kernel stopped while the tool ran");
    }
    this.active = null;
  }

  private requireActive(turnId: string): void {
    if (this.active !== turnId) throw new Error(`turn ${turnId} is not the active turn`);
  }

  private move(callId: string, to: LedgerStatus, reason: string | null): void {
    const e = this.ledger.get(callId);
    if (!e) throw new Error(`call ${callId} has no ledger row`);
    if (!ALLOWED[e.status].includes(to)) throw new Error(`ledger transition ${e.status} → ${to} is not allowed for ${callId}`);
    e.status = to;
    e.reason = reason;
  }
}

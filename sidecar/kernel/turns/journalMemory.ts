// The harness's memory port over the control plane (harness #7, control plane #20): the ledger
// row is written before each effect, `dispatched` is synced to disk before the tool runs, and each
// complete call/result batch commits with its ledger completions in one transaction.
import type { AgentMemory, AgentMessage, InvocationClaim, InvocationSettlement, TurnClose, TurnStart } from "../../agent/index.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { InvocationClaim as LedgerClaim, InvocationOutcome } from "../control/ledger.js";

interface Completion {
  claim: LedgerClaim;
  outcome: InvocationOutcome;
}

export class JournalMemory implements AgentMemory {
  private readonly claims = new Map<string, LedgerClaim>();
  private readonly dispatched = new Set<string>();
  private completions: Completion[] = [];

  constructor(
    private readonly control: ControlPlane,
    private readonly run: { sessionId: string; turnId: string; attemptId: string },
  ) {}

  async beginTurn(_start: TurnStart): Promise<void> {
    // Admission already journaled the run, its attempt and the user message (control plane #9: the kernel
    // is the only conversation writer); the turn now holds execution authority.
    this.control.transitionAttempt(this.run.turnId, this.run.attemptId, "starting");
    this.control.transitionAttempt(this.run.turnId, this.run.attemptId, "running");
  }

  async recordPrepared(claim: InvocationClaim): Promise<void> {
    const ledger = this.control.prepareInvocation({
      turnId: this.run.turnId,
      attemptId: this.run.attemptId,
      callId: claim.callId,
      tool: claim.tool,
      input: claim.input,
      manifestDigest: claim.authorityDigest,
      effectClass: claim.effectClass,
    });
    if (ledger.inputHash !== claim.inputHash) {
      throw new Error(`ledger input hash ${ledger.inputHash} differs from the approved ${claim.inputHash}; refusing to dispatch`);
    }
    this.claims.set(claim.callId, ledger);
  }

  async recordDispatched(callId: string): Promise<void> {
    this.control.markDispatched(this.claimOf(callId));
    this.dispatched.add(callId);
  }

  async recordSettled(callId: string, settlement: InvocationSettlement): Promise<void> {
    const outcome: InvocationOutcome =
      settlement.status === "succeeded" ? { status: "succeeded" } : { status: settlement.status, reason: settlement.reason };
    const claim = this.claimOf(callId);
    // A call that never ran settles at once; a dispatched one settles with its batch (one commit).
    if (this.dispatched.has(callId)) this.completions.push({ claim, outcome });
    else this.control.completeInvocation(claim, outcome);
  }

  async checkpoint(_turnId: string, messages: AgentMessage[]): Promise<void> {
    this.commitWithCompletions((completions) =>
      this.control.appendMessages(this.run.sessionId, this.run.turnId, withoutAdmittedUser(messages), completions),
    );
  }

  async closeTurn(_turnId: string, close: TurnClose): Promise<void> {
    this.commitWithCompletions((completions) =>
      this.control.finishTurn(this.run.turnId, close.status, close.status === "completed" ? undefined : close.reason, {
        messages: withoutAdmittedUser(close.messages),
        completions,
      }),
    );
  }

  /**
   * The buffered completions leave the buffer only once their transaction committed: if it throws
   * (SQLITE_BUSY, disk full), the harness's failure close carries the same results and must carry
   * their completions too, or history would hold real results the ledger calls outcome_unknown.
   */
  private commitWithCompletions(commit: (completions: readonly Completion[]) => void): void {
    const pending = [...this.completions];
    commit(pending);
    this.completions = this.completions.filter((c) => !pending.includes(c));
  }

  private claimOf(callId: string): LedgerClaim {
    const claim = this.claims.get(callId);
    if (!claim) throw new Error(`no ledger claim for call ${callId}: recordPrepared must come first`);
    return claim;
  }
}

/** The turn's user message was stored at admission; the harness hands it over with its first commit. */
function withoutAdmittedUser(messages: AgentMessage[]): AgentMessage[] {
  return messages[0]?.role === "user" ? messages.slice(1) : messages;
}

// The control plane's API: every durable kernel decision goes through here, each method one
// BEGIN IMMEDIATE transaction. The turn loop calls this; docs/control-plane.md documents it.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Condensation, HistoryMessage, RunEnding, TurnSummary, SessionSummary } from "../../../shared/protocol/records.js";
import type { RewindRecord } from "../../../shared/protocol/rewind.js";
import type { Db, Journal } from "../../journal/journal.js";
import { attachmentsOf, type AttachmentRecord } from "./attachments.js";
import { appendComplete, completeMessages, completeMessagesPage, replayMessages, type NewMessage } from "./conversation.js";
import {
  cancelIdleTask,
  createTask,
  taskSummary,
  taskTools,
  dismissTask,
  listTasks,
  markTaskRunning,
  orphanTask,
  ownedTask,
  queuedTasks,
  resultArtifact,
  resumeTask,
  settleTask,
  type NewTask,
} from "./tasks.js";
import type { TaskSummary } from "../../../shared/protocol/tasks.js";
import {
  completeInvocation,
  markDispatched,
  prepareInvocation,
  type InvocationClaim,
  type InvocationOutcome,
  type PrepareRequest,
} from "./ledger.js";
import { reconcileStartup, type ReconcileReport } from "./reconcile.js";
import {
  acknowledgeCancel,
  activeAttempt,
  activeRunOf,
  admitTurn,
  finishTurn,
  requestCancel,
  transitionAttempt,
  type Admission,
  type AdmissionInputs,
  type CancelDispatchResult,
  type ClientContext,
  type TurnTerminal,
} from "./turns.js";
import { ownedTurn, ownedSession, type KernelScope } from "./scope.js";
import {
  createSession,
  currentProfile,
  hideSession,
  listSessions,
  renameSession,
  sessionSummary,
  type NewSession,
  type ProfileRow,
} from "./sessions.js";
import type { AttemptStatus } from "./stateMachines.js";
import { runHistory } from "./history.js";
import { recordRunEnding } from "./runEndings.js";
import { pinAuthority, pinnedAuthority, type AuthorityDigests, type AuthorityPin } from "./authorityPins.js";
import { keptTools, recordKeptTools } from "./keptTools.js";
import { turnContext, type TurnContext } from "./contextSnapshots.js";
import { recordToolsOffered, type ToolsOffered } from "./offeredTools.js";
import { disabledInstructions, setInstructionEnabled } from "./instructionSwitches.js";
import { recordCondensation, sessionCondensations, type NewCondensation } from "./condensations.js";
import { SessionHolds } from "./sessionHolds.js";
import { activeRewoundRanges, sessionRewinds, viewableCondensationId, withoutRewound } from "./rewinds.js";
import { forkPoint, forkSession, type ForkPoint } from "./forks.js";

export interface SessionHistory {
  session: SessionSummary;
  messages: HistoryMessage[];
  runs: TurnSummary[];
  condensations: Condensation[];
  /** issue 29: the session's rewinds, oldest first; a view folds the messages of one not undone. */
  rewinds: RewindRecord[];
  /** Only for a page: whether messages older than the page remain. */
  hasOlder?: boolean;
}

export class ControlPlane {
  /** Sessions held by work that is not a run (compaction): no run is admitted to them meanwhile. */
  private readonly holds = new SessionHolds();

  constructor(
    private readonly journal: Journal,
    readonly scope: KernelScope,
  ) {}

  /** Startup reconciliation; call once after opening, before serving requests. */
  reconcile(): ReconcileReport {
    return reconcileStartup(this.journal);
  }

  createSession(input: NewSession): { sessionId: string; profileGeneration: number } {
    return this.journal.withTransaction((db) => createSession(db, this.scope, input));
  }

  profile(sessionId: string): ProfileRow {
    return this.inOwnedSession(sessionId, (db) => currentProfile(db, sessionId));
  }

  listSessions(limit = 100): SessionSummary[] {
    return listSessions(this.journal.db, this.scope, limit);
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    return this.journal.withTransaction((db) => renameSession(db, this.scope, sessionId, title));
  }

  /** A new session whose history is what this one's model sees before its user message #atSeq (issue 29 item 2). */
  forkSession(sessionId: string, atSeq: number): { session: SessionSummary; draft: string; copied: number } {
    return this.journal.withTransaction((db) => {
      const { sessionId: forkId, draft, copied } = forkSession(db, this.scope, sessionId, atSeq);
      return { session: sessionSummary(db, forkId), draft, copied };
    });
  }

  /** Where a fork at #atSeq would start, checked (a task forked from a chat takes its message by default). */
  forkPoint(sessionId: string, atSeq: number): ForkPoint {
    return forkPoint(this.journal.db, this.scope, sessionId, atSeq);
  }

  hideSession(sessionId: string): void {
    this.journal.withTransaction((db) => hideSession(db, this.scope, sessionId));
  }

  /**
   * Run + single active attempt + pinned context snapshot + the user message and its attachment
   * rows, in one transaction: a message is never journaled without what was attached to it.
   */
  admitTurn(sessionId: string, userMessage: string, client: ClientContext, inputs: AdmissionInputs = {}): Admission {
    this.holds.assertFree(sessionId);
    return this.journal.withTransaction((db) => admitTurn(db, this.scope, sessionId, userMessage, client, inputs));
  }

  /** The instruction files (and personal rules) the person turned off, by path (issue 27, item 1). */
  disabledInstructions(): Set<string> {
    return disabledInstructions(this.journal.db);
  }

  setInstructionEnabled(path: string, enabled: boolean): void {
    this.journal.withTransaction((db) => setInstructionEnabled(db, path, enabled));
  }

  /**
   * Holds the session as a run would (issue 23, item 9): refused while it has an active run (a turn,
   * or a task's run still queued), and no run is admitted until the returned release is called.
   */
  holdForCompaction(sessionId: string): () => void {
    return this.holdIdle(sessionId, "being compacted", "compact it");
  }

  /** Holds the session for a rewind or its undo (issue 29), as for compaction: no run meanwhile, none before. */
  holdForRewind(sessionId: string): () => void {
    return this.holdIdle(sessionId, "being rewound", "rewind it");
  }

  private holdIdle(sessionId: string, what: string, retry: string): () => void {
    const db = this.journal.db;
    ownedSession(db, this.scope, sessionId);
    const active = activeRunOf(db, sessionId);
    if (active)
      throw new HearthError(
        ErrorCode.Conflict,
        `refused: session ${sessionId} has an active run ${active}; ${retry} once the run has finished`,
      );
    return this.holds.hold(sessionId, what);
  }

  /** What was attached to a run's user message, in order. */
  attachmentsOf(turnId: string): AttachmentRecord[] {
    const db = this.journal.db;
    return attachmentsOf(db, ownedTurn(db, this.scope, turnId).run_id);
  }

  transitionAttempt(turnId: string, attemptId: string, to: AttemptStatus, reason?: string): AttemptStatus {
    return this.journal.withTransaction((db) => transitionAttempt(db, this.scope, turnId, attemptId, to, reason));
  }

  /**
   * Appends complete messages (one writer, monotonic seq) and, in the same transaction, the ledger
   * completions of the tool calls they report: a call/result batch commits as one.
   */
  appendMessages(
    sessionId: string,
    turnId: string | null,
    messages: readonly NewMessage[],
    completions: readonly { claim: InvocationClaim; outcome: InvocationOutcome }[] = [],
  ): number[] {
    return this.journal.withTransaction((db) => {
      ownedSession(db, this.scope, sessionId);
      if (turnId !== null) {
        const run = ownedTurn(db, this.scope, turnId);
        if (run.session_id !== sessionId)
          throw new HearthError(ErrorCode.Refused, `refused: run ${turnId} belongs to session ${run.session_id}, not ${sessionId}`);
        if (run.status !== "active")
          throw new HearthError(
            ErrorCode.Conflict,
            `refused: run ${turnId} is ${run.status}; its history is closed, so nothing more can be appended to it`,
          );
      }
      for (const c of completions) completeInvocation(db, this.scope, c.claim, c.outcome);
      return appendComplete(db, sessionId, turnId, messages);
    });
  }

  prepareInvocation(req: PrepareRequest): InvocationClaim {
    return this.journal.withTransaction((db) => prepareInvocation(db, this.scope, req));
  }

  /** Committed with synchronous=FULL: the mark must survive power loss before the effect runs. */
  markDispatched(claim: InvocationClaim): void {
    this.journal.withTransaction((db) => markDispatched(db, this.scope, claim), { durable: true });
  }

  completeInvocation(claim: InvocationClaim, outcome: InvocationOutcome): void {
    this.journal.withTransaction((db) => completeInvocation(db, this.scope, claim, outcome));
  }

  /**
   * The run's last messages (and the ledger completions they report), then its terminal state, in
   * one transaction (harness #10: a turn's close and its final checkpoint commit together).
   */
  finishTurn(
    turnId: string,
    status: TurnTerminal,
    error?: string,
    final: { messages?: readonly NewMessage[]; completions?: readonly { claim: InvocationClaim; outcome: InvocationOutcome }[] } = {},
  ): void {
    this.journal.withTransaction((db) => {
      const run = ownedTurn(db, this.scope, turnId);
      if (run.status !== "active")
        throw new HearthError(ErrorCode.Conflict, `refused: run ${turnId} is already ${run.status}; a terminal state is written once`);
      for (const c of final.completions ?? []) completeInvocation(db, this.scope, c.claim, c.outcome);
      if (final.messages?.length) appendComplete(db, run.session_id, turnId, final.messages);
      finishTurn(db, this.scope, turnId, status, error);
    });
  }

  /** How an ended run's footer said it ended, for views that read it again (issue 25 item 11). */
  recordRunEnding(turnId: string, ending: RunEnding): void {
    this.journal.withTransaction((db) => recordRunEnding(db, this.scope, turnId, ending));
  }

  requestCancel(turnId: string, dispatch?: (attemptId: string) => boolean): CancelDispatchResult {
    return this.journal.withTransaction((db) => requestCancel(db, this.scope, turnId, dispatch));
  }

  /** Evidence that the adapter stopped; true when the adapter's matrix lets it count as an acknowledgement. */
  acknowledgeCancel(turnId: string, attemptId: string): boolean {
    return this.journal.withTransaction((db) => acknowledgeCancel(db, this.scope, turnId, attemptId));
  }

  createTask(input: NewTask, client: ClientContext): Admission & { taskId: string; sessionId: string } {
    return this.journal.withTransaction((db) => createTask(db, this.scope, input, client));
  }

  /** A background task (issue 12), as every client sees it. */
  task(taskId: string): TaskSummary {
    const db = this.journal.db;
    return taskSummary(db, ownedTask(db, this.scope, taskId));
  }

  tasks(limit = 200): TaskSummary[] {
    const db = this.journal.db;
    return listTasks(db, this.scope, limit).map((d) => taskSummary(db, d));
  }

  /** The task's final answer (its result artifact), or null before it completed. */
  taskResult(taskId: string): string | null {
    const db = this.journal.db;
    return resultArtifact(db, ownedTask(db, this.scope, taskId))?.text ?? null;
  }

  /** Queued tasks, oldest first, with the run and attempt a free slot drives. */
  queuedTasks(): { taskId: string; sessionId: string; turnId: string; attemptId: string }[] {
    const db = this.journal.db;
    return queuedTasks(db, this.scope).flatMap((d) => {
      const attempt = d.run_id ? activeAttempt(db, d.run_id) : undefined;
      return d.run_id && attempt
        ? [{ taskId: d.delegation_id, sessionId: d.child_session_id, turnId: d.run_id, attemptId: attempt.attempt_id }]
        : [];
    });
  }

  /** A task session's tool ceiling (names), or null for a session that is no task. */
  taskTools(sessionId: string): string[] | null {
    return taskTools(this.journal.db, sessionId);
  }

  markTaskRunning(taskId: string): void {
    this.journal.withTransaction((db) => markTaskRunning(db, this.scope, taskId));
  }

  settleTask(taskId: string, outcome: { status: TurnTerminal; reason?: string }): void {
    this.journal.withTransaction((db) => settleTask(db, this.scope, taskId, outcome));
  }

  /** Cancels a queued or orphaned task (a running one is cancelled through its turn). */
  cancelIdleTask(taskId: string, reason: string): { dispatchAttempted: boolean; adapterAcknowledged: boolean } {
    return this.journal.withTransaction((db) => cancelIdleTask(db, this.scope, taskId, reason));
  }

  resumeTask(taskId: string, client: ClientContext, instructions?: AdmissionInputs["instructions"]): void {
    this.journal.withTransaction((db) => {
      this.holds.assertFree(ownedTask(db, this.scope, taskId).child_session_id);
      resumeTask(db, this.scope, taskId, client, instructions);
    });
  }

  dismissTask(taskId: string): void {
    this.journal.withTransaction((db) => dismissTask(db, this.scope, taskId));
  }

  orphanTask(taskId: string, attemptId: string, reason: string): void {
    this.journal.withTransaction((db) => orphanTask(db, this.scope, taskId, attemptId, reason));
  }

  /** The authority digests pinned by the session's first turn (harness #19), pinning `current` if none. */
  pinAuthority(sessionId: string, current: AuthorityDigests, toolNames?: readonly string[]): AuthorityDigests {
    return this.inOwnedSession(sessionId, (db) => pinAuthority(db, sessionId, current, toolNames));
  }

  /** The session's pin (harness #19); null before its first turn. */
  authorityPin(sessionId: string): AuthorityPin | null {
    return this.inOwnedSession(sessionId, (db) => pinnedAuthority(db, sessionId));
  }

  /** The tools the session goes on with although the kernel offers others (issue 25 item 2); null: the offered ones. */
  keptTools(sessionId: string): string[] | null {
    return keptTools(this.journal.db, sessionId);
  }

  keepTools(sessionId: string, tools: readonly string[], readOnly: boolean): void {
    this.inOwnedSession(sessionId, (db) => recordKeptTools(db, sessionId, tools, readOnly));
  }

  /** The run's pinned context (control plane #10): what a turn of this run is built from. */
  /** Journals the mode a run's harness was built in and the tools its model is offered (issue 27, item 2). */
  recordToolsOffered(turnId: string, offered: ToolsOffered): void {
    this.journal.withTransaction((db) => recordToolsOffered(db, ownedTurn(db, this.scope, turnId), offered));
  }

  turnContext(turnId: string): TurnContext {
    const db = this.journal.db;
    return turnContext(db, ownedTurn(db, this.scope, turnId));
  }

  /**
   * The complete messages and every run with its attempts and ledger rows: what clients show. With
   * a page (issue 26 item 4), the latest `limit` messages before `beforeSeq` and only their runs.
   */
  history(sessionId: string, page?: { limit?: number; beforeSeq?: number }): SessionHistory {
    const db = this.journal.db;
    ownedSession(db, this.scope, sessionId);
    const session = sessionSummary(db, sessionId);
    const condensations = sessionCondensations(db, sessionId);
    const rewinds = sessionRewinds(db, sessionId);
    if (page?.limit === undefined)
      return { session, messages: completeMessages(db, sessionId), runs: runHistory(db, sessionId), condensations, rewinds };
    const { messages, turnIds, hasOlder } = completeMessagesPage(db, sessionId, { limit: page.limit, beforeSeq: page.beforeSeq });
    return { session, messages, runs: runHistory(db, sessionId, turnIds), condensations, rewinds, hasOlder };
  }

  /** Journals a condensed view of the session's history as its own event (issue 13). */
  recordCondensation(c: NewCondensation): Condensation {
    return this.inOwnedSession(c.sessionId, (db) => recordCondensation(db, c));
  }

  /** What the session's model is shown now: its replayed history and latest condensation (session/compact). */
  condensationContext(sessionId: string): { history: HistoryMessage[]; latest: Condensation | null } {
    const db = this.journal.db;
    ownedSession(db, this.scope, sessionId);
    // issue 29: without the rewound messages, and the latest view that a rewind since has not made untrue.
    const viewable = viewableCondensationId(db, sessionId);
    return {
      history: withoutRewound(replayMessages(db, sessionId), activeRewoundRanges(db, sessionId)),
      latest: sessionCondensations(db, sessionId).find((c) => c.condensationId === viewable) ?? null,
    };
  }

  /** The session's latest condensed view, or null: a run resumes with it. */
  latestCondensation(sessionId: string): Condensation | null {
    return sessionCondensations(this.journal.db, sessionId).at(-1) ?? null;
  }

  /** One transaction that first checks the session belongs to this kernel's owner, then acts. */
  private inOwnedSession<T>(sessionId: string, act: (db: Db) => T): T {
    return this.journal.withTransaction((db) => {
      ownedSession(db, this.scope, sessionId);
      return act(db);
    });
  }
}

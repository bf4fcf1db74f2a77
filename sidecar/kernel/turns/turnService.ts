// turn/start and turn/cancel: admits a run durably, drives the harness in the background, streams
// its presentation events, and tells the truth about cancellation (control plane #13).
import { ErrorCode, isHearthError, errorMessage } from "../../../shared/errors.js";
import { singleLine } from "../../../shared/boundedText.js";
import type {
  ContextFill,
  GenerationOptions,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  TurnEvent,
} from "../../../shared/protocol/index.js";
import { untilAborted } from "../../agent/cancellation.js";
import { isStop, type AgentSession, type TurnOutcome } from "../../agent/index.js";
import type { AttachmentRecord } from "../control/attachments.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { ClientChannel, RequestContext } from "../clientChannel.js";
import { EventCoalescer } from "./eventCoalescer.js";
import { recordEvent, runEndingOf } from "./turnReplay.js";
import type { ApplyRequest } from "./applyProposal.js";
import type { TurnRef } from "./sessionAgent.js";
import type { PinnedInstructions } from "../context/projectInstructions.js";
import type { PinnedMode } from "../modes/modeCatalog.js";

/** How long turn/cancel waits for the turn to reach its completion barrier before answering. */
const CANCEL_ACK_WAIT_MS = 3000;

export type TurnCompletion = Extract<TurnEvent, { type: "completed" }>;

interface ActiveTurn extends TurnRef {
  controller: AbortController;
  done: Promise<void>;
  /** Who gets the turn's events and approval requests: its starter (or a reloaded window that took it over). */
  client: ClientChannel;
  /** Clients following the turn: they get its events only, never its approvals (issue 24, item 4). */
  watchers: Set<ClientChannel>;
  /** Its channel reaches every client already (a background task's): a follower is sent the events so far only. */
  everyClient: boolean;
  /** Its `completed` event is sent: a client that follows it now would wait for nothing. */
  completionSent?: boolean;
  /** The events streamed so far, for a client that follows the turn midway. */
  sent: TurnEvent[];
}

export interface TurnServiceDeps {
  control: ControlPlane;
  buildAgent: (run: TurnRef, client: ClientChannel) => Promise<AgentSession>;
  log: (line: string) => void;
  /** Lets go of the model a run's agent holds (ModelHost.lease), once the run has ended. */
  releaseModel?: (turnId: string) => void;
  /** Resolves once the model runs no native work for the session (harness #18, #22): a cancel is acknowledged only then. */
  modelSettled?: (sessionId: string) => Promise<void>;
  /** How full a session's context is now (issue 13: sent with the turn's completion); null when unknown. */
  contextFill?: (sessionId: string) => ContextFill | null;
  /** A turn is about to run (issue 30, item 3): idle work on the model stops first, so no turn waits on it. */
  turnStarting?: () => void;
  /** A turn has ended and left the active set: idle work may start once none runs. */
  turnEnded?: (run: TurnRef) => void;
  /** Asks the turn's owner for an approval and journals who decided (issue 24); default: asks it directly. */
  ask?: (
    owner: ClientChannel,
    req: ServerRequestParams<"approval/request">,
    signal?: AbortSignal,
  ) => Promise<ServerRequestResult<"approval/request">>;
  /** Whether a follower takes over the turn's approvals from its starter (a reloaded window); default never. */
  mayTakeOver?: (starter: ClientChannel, follower: ClientChannel) => boolean;
}

export class TurnService {
  private readonly active = new Map<string, ActiveTurn>();

  constructor(private readonly deps: TurnServiceDeps) {}

  /** Admits the run (run + attempt + pinned snapshot + user message and its attachments, one transaction) and starts it. */
  start(
    params: {
      sessionId: string;
      message: string;
      attachments?: readonly AttachmentRecord[];
      options?: GenerationOptions;
      readOnly?: boolean;
      apply?: ApplyRequest;
      /** Web pages attached to the message (issue 29 item 3): fetched by the run's first round. */
      fetchFirst?: readonly string[];
      narrowing?: TurnNarrowing;
      /** The project instructions read just before (issue 27): pinned in the run's snapshot. */
      instructions?: PinnedInstructions;
      /** The mode the person chose for this message (issue 27, item 2): pinned in the run's snapshot. */
      mode?: PinnedMode;
    },
    ctx: RequestContext,
  ): { turnId: string; attemptId: string } {
    const client = { clientId: ctx.clientId, requestId: ctx.requestId };
    const admission = this.deps.control.admitTurn(params.sessionId, params.message, client, {
      attachments: params.attachments,
      instructions: params.instructions,
      mode: params.mode,
    });
    const run: TurnRef = {
      sessionId: params.sessionId,
      turnId: admission.turnId,
      attemptId: admission.attemptId,
      readOnly: params.readOnly === true,
      ...(params.narrowing ? { narrowing: params.narrowing } : {}),
      ...(params.apply ? { apply: params.apply } : {}),
      ...(params.fetchFirst?.length ? { fetchFirst: params.fetchFirst } : {}),
    };
    this.launch(run, params, ctx.client);
    return { turnId: run.turnId, attemptId: run.attemptId };
  }

  /**
   * Drives a run admitted already (a chat turn, or a background task's run when a slot frees) as a
   * normal turn. `onCompleted` hears its completion before `cancel` and `stopAll` see it end.
   */
  launch(
    run: TurnRef,
    params: { message: string; options?: GenerationOptions },
    client: ClientChannel,
    onCompleted?: (completed: TurnCompletion) => void,
    opts: { everyClient?: boolean } = {},
  ): void {
    this.deps.turnStarting?.();
    const controller = new AbortController();
    const everyClient = opts.everyClient === true;
    const turn: ActiveTurn = { ...run, controller, done: Promise.resolve(), client, watchers: new Set(), everyClient, sent: [] };
    const { ask } = this.deps;
    // Resolved at each use: followers hear later events; approvals go to the owner only.
    const channel: ClientChannel = {
      notify: (method, notification) => {
        turn.client.notify(method, notification);
        for (const w of turn.watchers) w.notify(method, notification);
      },
      // An approval goes through the principals' rules; the editor's own questions (the problems a write left) to the owner.
      request: <M extends ServerRequestMethod>(method: M, request: ServerRequestParams<M>, signal?: AbortSignal) =>
        (everyClient || !ask || method !== "approval/request"
          ? turn.client.request(method, request, signal)
          : ask(turn.client, request as ServerRequestParams<"approval/request">, signal)) as Promise<ServerRequestResult<M>>,
    };
    turn.done = this.drive(turn, params, channel)
      .then((completed) => onCompleted?.(completed))
      .catch((e: Error) => this.deps.log(`turn ${run.turnId}: completion handler failed: ${e.stack ?? e.message}`))
      .finally(() => {
        this.active.delete(run.turnId);
        this.deps.turnEnded?.(run);
      });
    this.active.set(run.turnId, turn);
  }

  async cancel(turnId: string): Promise<{ turnId: string; dispatchAttempted: boolean; adapterAcknowledged: boolean }> {
    const turn = this.active.get(turnId);
    // Handed over after the cancel transaction commits (below): the abort's listeners write to the journal.
    const result = this.deps.control.requestCancel(turnId, turn ? () => false : undefined);
    if (!turn) return result;
    // The local turn stops also when its attempt never reached an adapter (still queued behind a
    // model load): the journal already says cancelled, so the stream must say it too (issue 11 item 8).
    turn.controller.abort(new Error("cancelled by the user"));
    // Stopped means the turn reached its completion barrier and the engine's native work has ended:
    // a llama round answers the abort while the batch it started still runs (harness #18, #22).
    const stopped = await Promise.race([
      turn.done.then(() => this.deps.modelSettled?.(turn.sessionId)).then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), CANCEL_ACK_WAIT_MS)),
    ]);
    if (!result.dispatchAttempted) return result;
    // control plane #13: the turn reaching its completion barrier is evidence; whether it proves the adapter
    // stopped is the adapter matrix's call (an HTTP server may keep generating after a disconnect).
    const adapterAcknowledged = stopped && this.deps.control.acknowledgeCancel(turnId, turn.attemptId);
    return { ...result, adapterAcknowledged };
  }

  /**
   * A client that (re)connected while the turn runs follows it: it gets the events streamed so far
   * and every later one. Following is read-only (issue 24): the turn's approvals stay with its owner,
   * unless the follower is a reloaded window whose starter window has gone (mayTakeOver).
   * Correlation only (control plane #6): any client of this kernel may follow a turn, as any may cancel it.
   */
  follow(turnId: string, client: ClientChannel): { turnId: string; following: boolean; events: TurnEvent[] } {
    const turn = this.active.get(turnId);
    if (!turn || turn.completionSent) return { turnId, following: false, events: [] };
    // In one tick: the events so far come back here, every later one goes to the follower too.
    if (this.deps.mayTakeOver?.(turn.client, client)) {
      turn.client = client;
      turn.watchers.delete(client);
    } else if (!turn.everyClient && client !== turn.client) turn.watchers.add(client);
    return { turnId, following: true, events: [...turn.sent] };
  }

  /** True while any turn runs: a detached kernel with no clients stays up until its turns end. */
  busy(): boolean {
    return this.active.size > 0;
  }

  /** True while a turn of the session runs. */
  running(sessionId: string): boolean {
    return [...this.active.values()].some((t) => t.sessionId === sessionId);
  }

  /** Cancels every running turn and waits for each to reach its completion barrier. */
  async stopAll(): Promise<void> {
    const turns = [...this.active.values()];
    for (const t of turns) t.controller.abort(new Error("the kernel is shutting down"));
    await Promise.allSettled(turns.map((t) => t.done));
  }

  private async drive(
    turn: ActiveTurn,
    params: { message: string; options?: GenerationOptions },
    client: ClientChannel,
  ): Promise<TurnCompletion> {
    const coalescer = new EventCoalescer((seq, event) => {
      recordEvent(turn.sent, event);
      client.notify("turn/event", { sessionId: turn.sessionId, turnId: turn.turnId, seq, event });
    });
    let completed: TurnCompletion;
    const building = this.deps.buildAgent(turn, client);
    // The model is released once the run has ended and its build has settled (a cancel can end the
    // run while the build still waits for the model).
    const releaseModel = () => void building.catch(() => undefined).finally(() => this.deps.releaseModel?.(turn.turnId));
    try {
      // A cancel while the model loads ends the turn at once; the load goes on for the next turn.
      const agent = await untilAborted(building, turn.controller.signal);
      const outcome = await agent.runTurn(params.message, {
        signal: turn.controller.signal,
        turnId: turn.turnId,
        overrides: params.options,
        onEvent: (e) => coalescer.push(e),
      });
      const context = this.deps.contextFill?.(turn.sessionId);
      completed = { ...completionOf(outcome), ...(context ? { context } : {}) };
    } catch (e) {
      // Refused before the harness journaled anything (model unavailable, resume refused, …):
      // the kernel still writes the run's terminal state, never leaving it to reconciliation.
      const message = singleLine(errorMessage(e), 2000);
      this.deps.log(`turn ${turn.turnId} refused: ${message}`);
      const status = turn.controller.signal.aborted ? "cancelled" : "failed";
      this.finishIfActive(turn.turnId, status, message);
      const code = status === "cancelled" ? ErrorCode.Refused : isHearthError(e) ? e.code : ErrorCode.InternalError;
      completed = { type: "completed", status, error: { code, message } };
    }
    releaseModel();
    coalescer.flush();
    this.recordEnding(turn, completed);
    turn.completionSent = true;
    coalescer.push(completed);
    return completed;
  }

  /** Before the completion is sent: a view that reads the chat once it hears it finds the ending there. */
  private recordEnding(turn: ActiveTurn, completed: TurnCompletion): void {
    const ending = runEndingOf(completed, turn.sent);
    if (!ending) return;
    try {
      this.deps.control.recordRunEnding(turn.turnId, ending);
    } catch (e) {
      // Only what a reloaded view shows is lost: the run's status and reason stay journaled.
      this.deps.log(`turn ${turn.turnId}: its ending was not recorded: ${errorMessage(e)}`);
    }
  }

  private finishIfActive(turnId: string, status: "failed" | "cancelled", reason: string): void {
    try {
      this.deps.control.finishTurn(turnId, status, reason);
    } catch (e) {
      if (!(isHearthError(e) && e.code === ErrorCode.Conflict)) throw e; // already terminal
    }
  }
}

function completionOf(outcome: TurnOutcome): Extract<TurnEvent, { type: "completed" }> {
  if (outcome.status === "completed")
    return { type: "completed", status: "completed", ...(outcome.stoppedAtTokenCap ? { stoppedAtTokenCap: true as const } : {}) };
  if (isStop(outcome.failure)) {
    // issue 13: a loop guard's stop is its own status; the journal keeps the run failed with the reason.
    // issue 22 item 3: the status and its words are typed fields of the failure, never parsed from its text.
    return {
      type: "completed",
      status: "stopped",
      error: { code: ErrorCode.Refused, message: outcome.failure.detail ?? outcome.failure.message },
    };
  }
  // The status already says cancelled: only a failure's kind goes before its message, so a reason
  // shown after its status never reads "cancelled: cancelled: …" (issue 23, item 16).
  if (outcome.status === "cancelled")
    return { type: "completed", status: "cancelled", error: { code: ErrorCode.Refused, message: outcome.failure.message } };
  // issue 25 item 8: a refusal that says what to do, with the numbers a view says it with and trims to.
  if (outcome.failure.tooLong)
    return {
      type: "completed",
      status: "failed",
      error: { code: ErrorCode.Refused, message: outcome.failure.message },
      tooLong: outcome.failure.tooLong,
    };
  return {
    type: "completed",
    status: outcome.status,
    error: { code: ErrorCode.InternalError, message: `${outcome.failure.kind}: ${outcome.failure.message}` },
  };
}

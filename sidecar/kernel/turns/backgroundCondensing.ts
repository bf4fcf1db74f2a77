// Condensing ahead of need (issue 30, item 3): after a turn whose prompt used more than
// CONDENSE_AHEAD_SHARE of the context, the session is condensed in idle time (every turn but the last
// into one summary, in the summary's own model session) so the turn that would have crossed the limit
// finds the view journaled already and never waits for a summary. It is the lowest-priority work:
// it runs only while no turn runs, stops at once when any turn starts (and is redone once the kernel
// is idle again), and journals nothing unless the session is exactly as it was when it began.
// Then the prompt the next turn begins with is evaluated into the session's KV cache (the model's
// `prefill`), so that turn evaluates only its own message instead of the summary and the kept turn.
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import type { Condensation } from "../../../shared/protocol/records.js";
import { TurnCancelled } from "../../agent/cancellation.js";
import type { AgentModel, GenerationRequest } from "../../agent/ports/model.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { ModelHost } from "../model/modelHost.js";
import { condenseEarlierTurns, type CondensationContext } from "./condensingService.js";
import type { TurnRef } from "./sessionAgent.js";

/**
 * A session whose last prompt used this share of its context is condensed between turns. In-turn
 * condensing starts when the prompt plus the answer's reserve (up to a quarter of the context) no
 * longer fits; at 0.6 a turn or two of growth remain before that, so the background summary is
 * ready ahead of the turn that needs it, while short sessions (most) never pay for one.
 */
export const CONDENSE_AHEAD_SHARE = 0.6;

export interface BackgroundCondensingDeps {
  /** HEARTH_CONDENSE_AHEAD: off, no session is ever condensed between turns. */
  enabled: boolean;
  control: ControlPlane;
  models: ModelHost;
  workspacePath: string;
  /** True while any turn runs, of any session: background work runs only in idle time. */
  busy: () => boolean;
  /** A condensation was journaled: every client hears of it (session/condensed). */
  announce: (sessionId: string, condensation: Condensation) => void;
  /** The prompt the session's next turn begins with, were it like `last` (nextTurnPrefix.ts). */
  nextTurnPrefix: (last: TurnRef, model: AgentModel) => Promise<Omit<GenerationRequest, "signal">>;
  log: (line: string) => void;
}

interface Condensing {
  run: TurnRef;
  controller: AbortController;
  done: Promise<void>;
}

export class BackgroundCondensing {
  /** Sessions to condense once the kernel is idle, in the order their turns ended, each with its last run. */
  private readonly wanted = new Map<string, TurnRef>();
  private current: Condensing | null = null;
  private stopped = false;

  constructor(private readonly deps: BackgroundCondensingDeps) {}

  /** A turn of the session ended: its fill decides whether it is condensed once the kernel is idle. */
  turnEnded(run: TurnRef): void {
    const fill = this.deps.enabled ? this.deps.models.contextFill(run.sessionId) : null;
    this.wanted.delete(run.sessionId); // re-added last: the order is the order turns ended
    if (fill && fill.usedTokens >= fill.contextSize * CONDENSE_AHEAD_SHARE) this.wanted.set(run.sessionId, run);
    this.next();
  }

  /** A turn is starting (any session's): the condensing in progress stops now and is redone later. */
  yieldToTurn(): void {
    const now = this.current;
    if (!now || now.controller.signal.aborted) return;
    this.wanted.set(now.run.sessionId, now.run);
    now.controller.abort(new Error("a turn started"));
  }

  /** The kernel stops: nothing new starts, the one in progress is cancelled (it journals nothing). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wanted.clear();
    this.current?.controller.abort(new Error("the kernel is shutting down"));
    await this.current?.done;
  }

  private next(): void {
    if (this.stopped || this.current || this.deps.busy()) return;
    const [first] = this.wanted;
    if (first === undefined) return;
    const [sessionId, run] = first;
    this.wanted.delete(sessionId);
    const controller = new AbortController();
    const done = this.condense(run, controller.signal).finally(() => {
      this.current = null;
      this.next();
    });
    this.current = { run, controller, done };
  }

  private async condense(run: TurnRef, signal: AbortSignal): Promise<void> {
    const { control, models, log } = this.deps;
    const { sessionId } = run;
    const holder = `\u0000condense ${sessionId}`;
    try {
      const profile = control.profile(sessionId);
      const loaded = models.status();
      // Idle work never loads or swaps a model: the turn that needs this session's model will.
      if (loaded.state !== "loaded" || loaded.spec !== profile.model_profile) return;
      const model = await models.lease(profile.model_profile, holder);
      if (signal.aborted) throw new TurnCancelled();
      log(`background condensing of session ${sessionId} started`);
      const made = await condenseEarlierTurns(this.deps, sessionId, model, profile, {
        trigger: "automatic",
        signal,
        beforeSave: (started) => unchangedSince(control, sessionId, started, signal),
      });
      if (made) this.deps.announce(sessionId, made);
      log(`background condensing of session ${sessionId} ${made ? `journaled ${made.condensationId}` : "found nothing older to condense"}`);
      await this.prefill(run, model, signal);
    } catch (e) {
      if (signal.aborted || e instanceof TurnCancelled)
        log(`background condensing of session ${sessionId} cancelled: ${errorMessage(signal.reason ?? e)}`);
      else log(`background condensing of session ${sessionId} failed: ${errorMessage(e)}`);
    } finally {
      models.release(holder);
    }
  }

  /**
   * The next turn's prompt before its message, into the session's cache: after a condensation the
   * cache holds the old history, and the turn would evaluate the summary and the kept turn before its
   * first token. Also when nothing was condensed now (a prefill cancelled before is redone). Cancelled
   * like the condensing, by any turn starting: the model stops before its next chunk.
   */
  private async prefill(run: TurnRef, model: AgentModel, signal: AbortSignal): Promise<void> {
    if (!model.prefill) return;
    const { log } = this.deps;
    const what = `background prefill of session ${run.sessionId}`;
    try {
      const request = await this.deps.nextTurnPrefix(run, model);
      if (signal.aborted) throw new TurnCancelled();
      log(`${what} started`);
      const done = await model.prefill({ ...request, signal });
      log(
        `${what} evaluated ${done.evaluatedTokens} of the next turn's ${done.prefixTokens} prompt tokens before its message (${done.reusedTokens} were cached)`,
      );
    } catch (e) {
      // Only idle time is lost: the next turn evaluates what the cache lacks, as without a prefill.
      if (signal.aborted || e instanceof TurnCancelled) log(`${what} cancelled: ${errorMessage(signal.reason ?? e)}`);
      else log(`${what} failed: ${errorMessage(e)}`);
    }
  }
}

/**
 * The view is journaled only for the history it was made from: a turn admitted, a rewind or a
 * compact since would make it untrue (and a run admitted since must never see a view made after its
 * admission, issue 23 item 9). Runs in the same tick as the journal write, so nothing slips between.
 */
function unchangedSince(control: ControlPlane, sessionId: string, started: CondensationContext, signal: AbortSignal): void {
  if (signal.aborted) throw new TurnCancelled();
  const now = control.condensationContext(sessionId);
  const seqs = (c: CondensationContext) => c.history.map((m) => m.seq).join(",");
  if (seqs(now) !== seqs(started) || now.latest?.condensationId !== started.latest?.condensationId)
    throw new HearthError(ErrorCode.Conflict, `session ${sessionId} changed while it was condensed; it is condensed again once idle`);
}

// Background tasks (issue 12, docs/tasks.md): each a leaf session's run, driven by the TurnService as
// a normal turn beside chats (one model; sessions on their own context sequences). At most
// `maxRunning` run at once; the rest wait `queued` in the journal, oldest first. Every change of a
// task's state is published to every connected client as `task/updated`.
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import { singleLine } from "../../../shared/boundedText.js";
import type { TaskSummary } from "../../../shared/protocol/index.js";
import type { ControlPlane } from "../control/controlPlane.js";
import { projectToolsForRole } from "../control/roles.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { RequestContext } from "../clientChannel.js";
import type { TurnCompletion, TurnService } from "../turns/turnService.js";
import type { Journal } from "../../journal/journal.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ClientPrincipals } from "../principals/clientPrincipals.js";
import type { DecisionJournal } from "../principals/decisionJournal.js";
import { recordTurnOrigin, recordTaskOrigin, taskReadOnly, type Origin } from "../principals/runOrigins.js";
import type { ClientRegistry } from "./clientRegistry.js";
import { taskChannel, type PendingTaskApprovals } from "./taskChannel.js";
import type { InstructionReader } from "../context/instructionReader.js";

export interface TaskServiceDeps {
  control: ControlPlane;
  turns: TurnService;
  clients: ClientRegistry;
  /** HEARTH_MAX_TASKS: how many tasks run at once. */
  maxRunning: number;
  /** The tools this kernel offers: the ceiling of a task a person starts. */
  offeredTools: () => string[];
  defaultModel: string | null;
  log: (line: string) => void;
  /** issue 24: who each client is, every decision journaled, the approvals a terminal may answer. */
  journal: Journal;
  principals: ClientPrincipals;
  decisions: DecisionJournal;
  pending: PendingTaskApprovals;
  /** The project instructions as they are now (issue 27): pinned with each task's run, as with a chat turn. */
  instructions?: InstructionReader;
}

export interface StartTask {
  /** What the task is to do; with `forkOf` and none, the forked message itself. */
  instruction?: string;
  /** Forked from a chat at its user message (issue 29 item 2): the task starts with the history before it. */
  forkOf?: { sessionId: string; atSeq: number };
  title?: string;
  model?: string;
  tools?: string[];
  /** The coordinator session delegating it (its `delegate_task` call); none when a person starts it. */
  parentSessionId?: string;
  /** Started by an untrusted client (Restricted Mode): read-only tools only, pinned for the task's life. */
  readOnly?: boolean;
}

/** Who asks: the request's correlation, and the client's channel (absent for a coordinator's delegate_task). */
type Starter = Pick<RequestContext, "clientId" | "requestId"> & { client?: ClientChannel };

const ENDED: ReadonlySet<TaskSummary["state"]> = new Set(["completed", "failed", "cancelled"]);

const TITLE_CHARS = 80;

export class TaskService {
  /** taskId → the attempt its running turn drives. */
  private readonly running = new Map<string, { turnId: string; attemptId: string }>();
  /** Callers waiting for a task to end (a coordinator's delegate_task call). */
  private readonly endWaiters = new Map<string, ((task: TaskSummary) => void)[]>();
  private stopping = false;
  /** The starting client's narrowing of each task's runs, while this kernel lives. */
  private readonly narrowings = new Map<string, TurnNarrowing>();

  constructor(private readonly deps: TaskServiceDeps) {}

  /**
   * `narrowing`: the starting client's stricter settings (issue 22, item 2). Its tool list narrows the
   * task's ceiling (journaled); the rest applies to the task's runs in this kernel's life.
   */
  async start(params: StartTask, ctx: Starter, narrowing?: TurnNarrowing): Promise<TaskSummary> {
    // A forked task says its message unless told otherwise; createTask checks the fork point again in
    // its transaction, so it is read here only for that message.
    const fork = params.forkOf;
    const instruction = params.instruction ?? (fork ? this.deps.control.forkPoint(fork.sessionId, fork.atSeq).draft : undefined);
    if (!instruction?.trim())
      throw new HearthError(ErrorCode.InvalidParams, "no instruction for the task: say what it should do (or fork it at a user message)");
    // A delegated task runs on its coordinator's model, a forked one on its chat's, unless told otherwise.
    const from = params.parentSessionId ?? fork?.sessionId;
    const parentModel = from ? this.deps.control.profile(from).model_profile || null : null;
    const model = params.model ?? parentModel ?? this.deps.defaultModel;
    if (!model)
      throw new HearthError(
        ErrorCode.InvalidParams,
        "no model for the task: pass `model` (hearth task start --model SPEC, or set HEARTH_MODEL), or start the kernel with --model",
      );
    const tools = this.ceiling(params.tools, narrowing?.tools);
    const instructions = await this.deps.instructions?.(params.readOnly === true);
    const { taskId } = this.deps.control.createTask(
      {
        parentSessionId: params.parentSessionId ?? null,
        title: params.title ?? titleOf(instruction),
        prompt: instruction,
        model,
        tools,
        ...(instructions ? { instructions } : {}),
        ...(fork ? { forkOf: fork } : {}),
      },
      { clientId: ctx.clientId, requestId: ctx.requestId },
    );
    const origin: Origin = {
      kind: params.parentSessionId ? "delegation" : ctx.client ? this.deps.principals.of(ctx.client).kind : "unnamed",
      clientId: ctx.clientId,
      readOnly: params.readOnly === true,
    };
    // Before the task can take a slot (pump): its first run is launched with its pinned trust.
    this.deps.journal.withTransaction((db) => {
      recordTaskOrigin(db, taskId, origin);
      recordTurnOrigin(db, this.deps.control.task(taskId).turnId!, { ...origin, kind: "task" });
    });
    if (narrowing) this.narrowings.set(taskId, narrowing);
    this.publish(taskId);
    this.pump();
    return this.deps.control.task(taskId);
  }

  /** A task's tools: what was asked, refused when it is wider than the ceiling; the ceiling when nothing was asked. */
  private ceiling(asked: string[] | undefined, narrowTo?: readonly string[]): string[] {
    const ceiling = projectToolsForRole(
      "leaf",
      this.deps.offeredTools().map((name) => ({ name })),
    )
      .map((t) => t.name)
      .filter((t) => !narrowTo || narrowTo.includes(t));
    if (asked === undefined) return ceiling;
    const wider = asked.filter((t) => !ceiling.includes(t));
    if (wider.length > 0) {
      throw new HearthError(
        ErrorCode.Refused,
        `refused: a task's tools cannot be wider than its ceiling; ${wider.join(", ")} ` +
          `${wider.length === 1 ? "is" : "are"} not among ${ceiling.join(", ") || "(none)"}. Ask for a subset of those`,
      );
    }
    return [...new Set(asked)];
  }

  async cancel(taskId: string): Promise<{ task: TaskSummary; dispatchAttempted: boolean; adapterAcknowledged: boolean }> {
    const live = this.running.get(taskId);
    let result: { dispatchAttempted: boolean; adapterAcknowledged: boolean };
    if (live) {
      // The turn's truthful cancel (control plane #13); its completion settles the task before this returns.
      const r = await this.deps.turns.cancel(live.turnId);
      result = { dispatchAttempted: r.dispatchAttempted, adapterAcknowledged: r.adapterAcknowledged };
    } else {
      result = this.deps.control.cancelIdleTask(taskId, "cancelled by the user");
      this.publish(taskId);
    }
    return { task: this.deps.control.task(taskId), ...result };
  }

  async resume(taskId: string, ctx: RequestContext): Promise<TaskSummary> {
    // The resumed run is shown the instructions as they are now, read with the task's pinned trust.
    const instructions = await this.deps.instructions?.(taskReadOnly(this.deps.journal.db, taskId));
    this.deps.control.resumeTask(taskId, { clientId: ctx.clientId, requestId: ctx.requestId }, instructions);
    // The resumed run keeps the task's trust (pinned authority): resuming never widens it.
    this.deps.journal.withTransaction((db) =>
      recordTurnOrigin(db, this.deps.control.task(taskId).turnId!, {
        kind: "task",
        clientId: ctx.clientId,
        readOnly: taskReadOnly(db, taskId),
      }),
    );
    this.publish(taskId);
    this.pump();
    return this.deps.control.task(taskId);
  }

  /** The queued task whose run this is, if any: a turn/cancel of that run cancels the task (issue 24, item 4). */
  queuedTaskOfRun(turnId: string): string | null {
    const row = this.deps.journal.db.prepare(`SELECT delegation_id FROM delegations WHERE run_id = ? AND status = 'queued'`).get(turnId) as
      | { delegation_id: string }
      | undefined;
    return row?.delegation_id ?? null;
  }

  dismiss(taskId: string): TaskSummary {
    this.deps.control.dismissTask(taskId);
    this.publish(taskId);
    return this.deps.control.task(taskId);
  }

  /**
   * The kernel is shutting down: running tasks will be orphaned (resumable), not cancelled, and no
   * queued one starts. Call before the turns are stopped.
   */
  stopAccepting(): void {
    this.stopping = true;
  }

  /** Starts queued tasks while slots are free; at kernel start, those a previous kernel left queued. */
  pump(): void {
    if (this.stopping) return;
    for (const q of this.deps.control.queuedTasks()) {
      if (this.running.size >= this.deps.maxRunning) return;
      this.launch(q);
    }
  }

  private launch(q: { taskId: string; sessionId: string; turnId: string; attemptId: string }): void {
    const { control, turns } = this.deps;
    control.markTaskRunning(q.taskId);
    this.running.set(q.taskId, { turnId: q.turnId, attemptId: q.attemptId });
    this.publish(q.taskId);
    const { userMessage } = control.turnContext(q.turnId);
    const channel = taskChannel(this.deps, q.taskId, () => this.publish(q.taskId));
    const readOnly = taskReadOnly(this.deps.journal.db, q.taskId);
    const narrowing = this.narrowings.get(q.taskId);
    turns.launch(
      { sessionId: q.sessionId, turnId: q.turnId, attemptId: q.attemptId, readOnly, ...(narrowing ? { narrowing } : {}) },
      { message: userMessage },
      channel,
      (completed) => this.settle(q.taskId, q.attemptId, completed),
      { everyClient: true },
    );
  }

  private settle(taskId: string, attemptId: string, completed: TurnCompletion): void {
    this.running.delete(taskId);
    this.narrowings.delete(taskId); // settled or orphaned by a shutdown: it never runs again in this kernel
    const reason = completed.error ? singleLine(completed.error.message) : undefined;
    if (this.stopping && completed.status === "cancelled") {
      this.deps.control.orphanTask(taskId, attemptId, "the kernel shut down while it ran; resume it or dismiss it");
    } else {
      this.deps.control.settleTask(taskId, { status: completed.status === "stopped" ? "failed" : completed.status, reason });
    }
    this.deps.log(`task ${taskId} ${completed.status}${reason ? `: ${reason}` : ""}`);
    this.publish(taskId);
    this.pump();
  }

  /** A completed task's final answer (its task_result artifact), or null. */
  result(taskId: string): string | null {
    return this.deps.control.taskResult(taskId);
  }

  /** Resolves with the task once it has completed, failed or been cancelled. */
  ended(taskId: string): Promise<TaskSummary> {
    const now = this.deps.control.task(taskId);
    if (ENDED.has(now.state)) return Promise.resolve(now);
    return new Promise((resolve) => this.endWaiters.set(taskId, [...(this.endWaiters.get(taskId) ?? []), resolve]));
  }

  private publish(taskId: string): void {
    try {
      const task = this.deps.control.task(taskId);
      if (ENDED.has(task.state)) for (const wake of this.endWaiters.get(taskId) ?? []) wake(task);
      if (ENDED.has(task.state)) this.endWaiters.delete(taskId);
      this.deps.clients.notifyAll("task/updated", { task });
    } catch (e) {
      this.deps.log(`task ${taskId}: could not publish its state: ${errorMessage(e)}`);
    }
  }
}

/** A task started without a title is named by its instruction's first line. */
function titleOf(instruction: string): string {
  const line = instruction.trim().split("\n")[0]!.trim();
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

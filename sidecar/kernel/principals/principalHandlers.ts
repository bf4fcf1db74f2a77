// The principals' part of the method table (issue 24), laid over the handlers it refines: who a
// client is (initialize, refused for another folder), who started each run, a session refused in a
// folder its profile does not name, every decision read back with the history, a terminal's answer
// to a task's approval, and turn/cancel of a queued task's run cancelling the task.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Journal } from "../../journal/journal.js";
import type { Handlers, RequestContext } from "../handlers/types.js";
import type { PendingTaskApprovals } from "../tasks/taskChannel.js";
import type { TaskService } from "../tasks/taskService.js";
import type { ClientPrincipals } from "./clientPrincipals.js";
import { decisionsOf } from "./decisionJournal.js";
import { recordTurnOrigin, runOrigins } from "./runOrigins.js";

export interface PrincipalHandlerDeps {
  principals: ClientPrincipals;
  journal: Journal;
  tasks: TaskService;
  pending: PendingTaskApprovals;
  workspaceRoot: string;
}

export function withPrincipals(handlers: Handlers, deps: PrincipalHandlerDeps): void {
  const initialize = required(handlers.initialize, "initialize");
  handlers.initialize = async (params, ctx) => {
    deps.principals.admit(ctx.client, ctx.clientId, params.client);
    return initialize(params, ctx);
  };
  const turnStart = required(handlers["turn/start"], "turn/start");
  handlers["turn/start"] = async (params, ctx) => {
    assertSessionFolder(deps, params.sessionId);
    return recorded(deps, ctx, params.readOnly, await turnStart(params, ctx));
  };
  const turnApply = required(handlers["turn/apply"], "turn/apply");
  handlers["turn/apply"] = async (params, ctx) => {
    assertSessionFolder(deps, params.sessionId);
    return recorded(deps, ctx, params.readOnly, await turnApply(params, ctx));
  };
  // issue 25 item 2: another folder's session keeps no tools here.
  const keepTools = required(handlers["session/keepTools"], "session/keepTools");
  handlers["session/keepTools"] = async (params, ctx) => {
    assertSessionFolder(deps, params.sessionId);
    return keepTools(params, ctx);
  };
  const history = required(handlers["session/history"], "session/history");
  handlers["session/history"] = async (params, ctx) => ({
    ...(await history(params, ctx)),
    origins: runOrigins(deps.journal.db, params.sessionId),
    decisions: decisionsOf(deps.journal.db, params.sessionId),
  });
  const cancel = required(handlers["turn/cancel"], "turn/cancel");
  handlers["turn/cancel"] = async (params, ctx) => {
    // A queued task's run has no turn yet: cancelling it cancels the task, one answer through either method.
    const queued = deps.tasks.queuedTaskOfRun(params.turnId);
    if (!queued) return cancel(params, ctx);
    const { dispatchAttempted, adapterAcknowledged } = await deps.tasks.cancel(queued);
    return { turnId: params.turnId, dispatchAttempted, adapterAcknowledged };
  };
}

/** task/answer: a person's answer to a task's approval from a terminal (`hearth task approve|deny ID`). */
export function taskAnswerHandler(deps: Pick<PrincipalHandlerDeps, "principals" | "pending">) {
  return {
    "task/answer": async (params, ctx) => {
      const by = deps.principals.of(ctx.client);
      const verb = params.decision === "approve" ? "approved" : "denied";
      const reason = params.reason ?? `${verb} at the terminal (hearth task ${params.decision === "approve" ? "approve" : "deny"})`;
      const r = deps.pending.answer(params.taskId, { decision: params.decision, reason }, { kind: by.kind, clientId: by.clientId });
      return { taskId: params.taskId, ...r };
    },
  } satisfies Handlers;
}

function recorded<T extends { turnId: string }>(
  deps: PrincipalHandlerDeps,
  ctx: RequestContext,
  readOnly: boolean | undefined,
  started: T,
): T {
  const { kind, clientId } = deps.principals.of(ctx.client);
  deps.journal.withTransaction((db) => recordTurnOrigin(db, started.turnId, { kind, clientId, readOnly: readOnly === true }));
  return started;
}

/** A session runs only in the folder its profile names (issue 24, item 3). */
function assertSessionFolder(deps: PrincipalHandlerDeps, sessionId: string): void {
  const row = deps.journal.db.prepare(`SELECT workspace FROM sessions WHERE session_id = ?`).get(sessionId) as
    | { workspace: string }
    | undefined;
  if (!row || row.workspace === deps.workspaceRoot) return; // an unknown session is refused by the turn itself
  throw new HearthError(
    ErrorCode.Refused,
    `refused: session ${sessionId} works in the folder ${row.workspace}, and this kernel serves ${deps.workspaceRoot}; ` +
      "a session's tools run only in its own folder. Open that folder (its own journal), or start a new session here",
  );
}

function required<H>(handler: H | undefined, method: string): H {
  if (!handler) throw new Error(`the principals wrap ${method}, which has no handler yet`);
  return handler;
}

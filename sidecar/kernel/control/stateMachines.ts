// Every status field's allowed transitions, as data (STYLE.md: state machines are data). The one
// writer (`transition.ts`) and startup reconciliation read these tables; tests walk them. The
// statuses clients see are the protocol's enums (shared/protocol/records.ts), named once there.
import type { AttemptStatus, TurnStatus, ToolInvocationStatus as InvocationStatus } from "../../../shared/protocol/records.js";

export { ACTIVE_ATTEMPT_STATUSES } from "../../../shared/protocol/records.js";
export type { AttemptStatus, InvocationStatus, TurnStatus };

export interface Machine<S extends string> {
  readonly table: string;
  readonly idColumn: string;
  readonly entity: string;
  readonly statuses: readonly S[];
  readonly allowed: Readonly<Record<S, readonly S[]>>;
}

function machine<S extends string>(table: string, idColumn: string, entity: string, allowed: Record<S, readonly S[]>): Machine<S> {
  return { table, idColumn, entity, statuses: Object.keys(allowed) as S[], allowed };
}

// control plane #12: silence is not success, so every active status may be orphaned, none may jump to completed
// except running (the adapter finished) and cancelling never becomes completed (cancellation truth).
export const attemptMachine = machine<AttemptStatus>("run_attempts", "attempt_id", "attempt", {
  queued: ["starting", "cancelling", "cancelled", "failed", "orphaned"],
  starting: ["running", "cancelling", "failed", "orphaned"],
  running: ["waiting_input", "waiting_approval", "cancelling", "completed", "failed", "orphaned"],
  waiting_input: ["running", "cancelling", "failed", "orphaned"],
  waiting_approval: ["running", "cancelling", "failed", "orphaned"],
  cancelling: ["cancelled", "failed", "orphaned"],
  completed: [],
  failed: [],
  cancelled: [],
  orphaned: [],
});

export const runMachine = machine<TurnStatus>("runs", "run_id", "run", {
  active: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
});

// control plane #8: prepared → dispatched → succeeded|failed; on restart prepared → failed and
// dispatched → outcome_unknown. Nothing leaves a terminal state, so no result lands twice.
export const invocationMachine = machine<InvocationStatus>("tool_invocations", "invocation_id", "tool_invocation", {
  prepared: ["dispatched", "failed"],
  dispatched: ["succeeded", "failed", "outcome_unknown"],
  succeeded: [],
  failed: [],
  outcome_unknown: [],
});

export type TaskStatus = "queued" | "running" | "interrupted" | "completed" | "failed" | "cancelled";
export const taskMachine = machine<TaskStatus>("delegations", "delegation_id", "delegation", {
  queued: ["running", "interrupted", "failed", "cancelled"],
  running: ["interrupted", "completed", "failed", "cancelled"],
  // A person resumes an orphaned task: it queues for a task slot like a new one (issue 12).
  interrupted: ["queued", "running", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
});

/** Statuses of `m` that may move to `to`: what reconciliation selects, derived from the table. */
export function sourcesOf<S extends string>(m: Machine<S>, to: S): S[] {
  return m.statuses.filter((s) => m.allowed[s].includes(to));
}

export function isTerminal<S extends string>(m: Machine<S>, s: S): boolean {
  return m.allowed[s].length === 0;
}

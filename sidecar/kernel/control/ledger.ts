// The tool ledger (control plane #8, physical tool authority): prepared → dispatched → succeeded|failed.
// The claim is persisted before the effect; a result lands only if it echoes the complete claim.
import { MAX_REASON_CHARS } from "../../../shared/boundedText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { EffectClass } from "../../../shared/protocol/records.js";
import { inputHashOf } from "../../agent/canonicalJson.js";
import type { Db } from "../../journal/journal.js";
import { assertToolAllowedForRole } from "./roles.js";
import { ownedTurn, type KernelScope, type TurnRow } from "./scope.js";
import { ACTIVE_ATTEMPT_STATUSES, invocationMachine } from "./stateMachines.js";
import { transition, nowIso, appendEvent } from "./transition.js";

/** The complete immutable claim a result must echo. */
export interface InvocationClaim {
  invocationId: string;
  turnId: string;
  attemptId: string;
  callId: string;
  tool: string;
  inputHash: string;
  manifestDigest: string;
  /** The boot epoch of the kernel that made the claim (KernelScope.bootEpoch): only that boot can complete it. */
  bootEpoch: string;
}

export interface PrepareRequest {
  turnId: string;
  attemptId: string;
  callId: string;
  tool: string;
  input: unknown;
  /** Digest of the tool manifest (name, schema, policy) the call was authorized against. */
  manifestDigest: string;
  effectClass: EffectClass;
  /** The tool's own declaration; it can only tighten the policy its effect class implies. */
  retryPolicy?: RetryPolicy;
}

export type RetryPolicy = "safe_retry" | "never_auto_retry";

/** control plane #8: a non-idempotent write (or a network effect) is never retried automatically. */
export function retryPolicyFor(effect: EffectClass): RetryPolicy {
  return effect === "read" || effect === "idempotent_write" ? "safe_retry" : "never_auto_retry";
}

function claimColumns(c: InvocationClaim): Record<string, string> {
  return {
    run_id: c.turnId,
    attempt_id: c.attemptId,
    call_id: c.callId,
    tool: c.tool,
    input_hash: c.inputHash,
    manifest_digest: c.manifestDigest,
    boot_epoch: c.bootEpoch,
  };
}

type ClaimStep = "prepare" | "dispatch" | "complete";

/**
 * control plane #8: authority is re-read from durable state at every step of a claim, not only at prepare.
 * The run must be active and the attempt its active one; a `cancelling` attempt may still record
 * the result of an effect already dispatched, but it starts no new one.
 */
function assertClaimAuthority(db: Db, scope: KernelScope, turnId: string, attemptId: string, step: ClaimStep): TurnRow {
  const run = ownedTurn(db, scope, turnId);
  if (run.status !== "active")
    throw new HearthError(
      ErrorCode.Conflict,
      `refused to ${step} a tool call: run ${turnId} is ${run.status}; a finished run cannot call tools`,
    );
  const attempt = db.prepare(`SELECT status FROM run_attempts WHERE attempt_id = ? AND run_id = ?`).get(attemptId, turnId) as
    | { status: string }
    | undefined;
  if (!attempt || !(ACTIVE_ATTEMPT_STATUSES as readonly string[]).includes(attempt.status)) {
    throw new HearthError(
      ErrorCode.Refused,
      `refused to ${step} a tool call: attempt ${attemptId} has no execution authority in run ${turnId} ` +
        `(${attempt?.status ?? "not this run's attempt"}); only the run's active attempt acts`,
    );
  }
  if (attempt.status === "cancelling" && step !== "complete") {
    throw new HearthError(
      ErrorCode.Refused,
      `refused to ${step} a tool call: attempt ${attemptId} of run ${turnId} is cancelling; a cancelled turn starts no new effects`,
    );
  }
  return run;
}

/** Authority of the attempt the claim was recorded under; a forged tuple then fails the exact match. */
function assertRecordedAuthority(db: Db, scope: KernelScope, claim: InvocationClaim, step: ClaimStep): void {
  const row = db.prepare(`SELECT run_id, attempt_id FROM tool_invocations WHERE invocation_id = ?`).get(claim.invocationId) as
    | { run_id: string; attempt_id: string }
    | undefined;
  if (row) assertClaimAuthority(db, scope, row.run_id, row.attempt_id, step);
}

/**
 * Authorizes and persists a claim. Re-reads durable state: owner, run active, attempt is the run's
 * active attempt, the session's persisted role allows the tool; the call id is single use per run.
 */
export function prepareInvocation(db: Db, scope: KernelScope, req: PrepareRequest): InvocationClaim {
  const run = assertClaimAuthority(db, scope, req.turnId, req.attemptId, "prepare");
  const { execution_role } = db.prepare(`SELECT execution_role FROM sessions WHERE session_id = ?`).get(run.session_id) as {
    execution_role: "coordinator" | "leaf";
  };
  assertToolAllowedForRole(execution_role, req.tool, run.session_id);
  const dup = db.prepare(`SELECT status FROM tool_invocations WHERE run_id = ? AND call_id = ?`).get(req.turnId, req.callId) as
    | { status: string }
    | undefined;
  if (dup)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: call ${req.callId} of run ${req.turnId} was already claimed (${dup.status}); a call id is single use, so it cannot run twice`,
    );
  const claim: InvocationClaim = {
    invocationId: uuidv7(),
    turnId: req.turnId,
    attemptId: req.attemptId,
    callId: req.callId,
    tool: req.tool,
    inputHash: inputHashOf(req.input),
    manifestDigest: req.manifestDigest,
    bootEpoch: scope.bootEpoch,
  };
  const at = nowIso();
  db.prepare(
    `INSERT INTO tool_invocations (
       invocation_id, run_id, attempt_id, call_id, tool, input_hash, manifest_digest, boot_epoch,
       status, effect_class, retry_policy, input_json, created_at, updated_at)
     VALUES (?,?,?,?,?,?,?,?, 'prepared',?,?,?,?,?)`,
  ).run(
    claim.invocationId,
    claim.turnId,
    claim.attemptId,
    claim.callId,
    claim.tool,
    claim.inputHash,
    claim.manifestDigest,
    claim.bootEpoch,
    req.effectClass,
    req.retryPolicy === "never_auto_retry" ? "never_auto_retry" : retryPolicyFor(req.effectClass),
    JSON.stringify(req.input ?? null),
    at,
    at,
  );
  appendEvent(
    db,
    {
      entityKind: "tool_invocation",
      entityId: claim.invocationId,
      sessionId: run.session_id,
      turnId: run.run_id,
      type: "tool.prepared",
      payload: { callId: claim.callId, tool: claim.tool },
    },
    at,
  );
  return claim;
}

/** prepared → dispatched. The caller commits this with synchronous=FULL before the effect runs. */
export function markDispatched(db: Db, scope: KernelScope, claim: InvocationClaim): void {
  assertRecordedAuthority(db, scope, claim, "dispatch");
  transition(db, invocationMachine, {
    id: claim.invocationId,
    to: "dispatched",
    from: ["prepared"],
    match: claimColumns(claim),
    event: { type: "tool.dispatched", turnId: claim.turnId },
  });
}

export interface InvocationOutcome {
  /** outcome_unknown: the effect was sent and its answer lost (an MCP server crashed mid-call); dispatched only. */
  status: "succeeded" | "failed" | "outcome_unknown";
  /** Bounded, serializable result summary (the full output lives in the tool message). */
  result?: unknown;
  reason?: string;
}

/**
 * dispatched → succeeded|failed|outcome_unknown, or prepared → failed (refused before the effect). Lands only when
 * every claim column matches, including this boot's epoch.
 */
export function completeInvocation(db: Db, scope: KernelScope, claim: InvocationClaim, outcome: InvocationOutcome): void {
  assertRecordedAuthority(db, scope, claim, "complete");
  transition(db, invocationMachine, {
    id: claim.invocationId,
    to: outcome.status,
    from: outcome.status === "failed" ? ["prepared", "dispatched"] : ["dispatched"],
    match: claimColumns(claim),
    set: {
      result_json: outcome.result === undefined ? null : JSON.stringify(outcome.result),
      reason: outcome.reason?.slice(0, MAX_REASON_CHARS) ?? null,
    },
    event: { type: `tool.${outcome.status}`, turnId: claim.turnId },
  });
}

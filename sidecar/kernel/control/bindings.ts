// Adapter bindings: the kernel's record of an adapter-native session behind a kernel session.
// spec 004: binding_generation is monotonic per session/adapter; a session id never changes when
// bindings do; process-local (resume_fidelity 'none') bindings are stale after a restart.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { adapterDeclaration } from "./adapterCapabilities.js";
import {
  assertAdapterAttemptResultContract,
  assertAdapterBindingContract,
  compatibilityHash,
  type BindingIdentity,
} from "./bindingContract.js";
import { bindingMachine } from "./stateMachines.js";
import { transition, nowIso, appendEvent } from "./transition.js";

/** Bumped when kernel policy that shapes what an adapter sees changes (part of the compatibility hash). */
export const KERNEL_POLICY_VERSION = 1;

interface BindingRow {
  binding_id: string;
  session_id: string;
  adapter: string;
  binding_generation: number;
  compatibility_hash: string;
  adapter_native_session_id: string | null;
  status: "active" | "stale";
}

export function staleBindingsOf(db: Db, sessionId: string, reason: string): number {
  const rows = db.prepare(`SELECT binding_id FROM adapter_bindings WHERE session_id = ? AND status = 'active'`).all(sessionId) as {
    binding_id: string;
  }[];
  for (const r of rows)
    transition(db, bindingMachine, {
      id: r.binding_id,
      to: "stale",
      set: { stale_reason: reason },
      event: { type: "binding.stale", sessionId, payload: { reason } },
    });
  return rows.length;
}

/**
 * Returns the session's reusable binding for its current profile, or stales the old one and creates
 * the next generation, and attaches it to the attempt.
 */
export function ensureBinding(
  db: Db,
  sessionId: string,
  attemptId: string,
): { bindingId: string; bindingGeneration: number; reused: boolean } {
  const p = db
    .prepare(
      `SELECT p.* FROM session_execution_profiles p JOIN sessions s ON s.session_id = p.session_id AND s.profile_generation = p.generation WHERE s.session_id = ?`,
    )
    .get(sessionId) as { generation: number; adapter: string; working_directory: string; system_prompt: string };
  const hash = compatibilityHash({
    profileGeneration: p.generation,
    kernelPolicyVersion: KERNEL_POLICY_VERSION,
    workingDirectory: p.working_directory,
    systemPrompt: p.system_prompt,
    toolServers: [],
  });
  const active = db
    .prepare(`SELECT * FROM adapter_bindings WHERE session_id = ? AND adapter = ? AND status = 'active'`)
    .get(sessionId, p.adapter) as BindingRow | undefined;
  let bindingId: string;
  let generation: number;
  let reused = false;
  if (active && active.compatibility_hash === hash) {
    bindingId = active.binding_id;
    generation = active.binding_generation;
    reused = true;
  } else {
    staleBindingsOf(db, sessionId, "compatibility_changed");
    const max = db
      .prepare(`SELECT COALESCE(MAX(binding_generation), 0) AS g FROM adapter_bindings WHERE session_id = ? AND adapter = ?`)
      .get(sessionId, p.adapter) as { g: number };
    generation = max.g + 1;
    bindingId = uuidv7();
    const at = nowIso();
    db.prepare(
      `INSERT INTO adapter_bindings (binding_id, session_id, adapter, binding_generation, profile_generation, compatibility_hash, adapter_native_session_id, resume_fidelity, status, created_at, updated_at) VALUES (?,?,?,?,?,?,NULL,?, 'active', ?, ?)`,
    ).run(bindingId, sessionId, p.adapter, generation, p.generation, hash, adapterDeclaration(p.adapter).resumeFidelity, at, at);
    appendEvent(
      db,
      { entityKind: "binding", entityId: bindingId, sessionId, type: "binding.created", payload: { generation, adapter: p.adapter } },
      at,
    );
  }
  db.prepare(`UPDATE run_attempts SET binding_id = ? WHERE attempt_id = ?`).run(bindingId, attemptId);
  return { bindingId, bindingGeneration: generation, reused };
}

function identity(db: Db, bindingId: string): BindingIdentity & { status: string } {
  const b = db.prepare(`SELECT * FROM adapter_bindings WHERE binding_id = ?`).get(bindingId) as BindingRow | undefined;
  if (!b) throw new HearthError(ErrorCode.NotFound, `no adapter binding ${bindingId}`);
  return { sessionId: b.session_id, bindingId: b.binding_id, adapterNativeSessionId: b.adapter_native_session_id, status: b.status };
}

/** Kernel ids an adapter must never echo as its own (run and attempt ids of the session). */
function kernelIdsOf(db: Db, sessionId: string): string[] {
  return (
    db
      .prepare(
        `SELECT r.run_id AS id FROM runs r WHERE r.session_id = ? UNION ALL SELECT a.attempt_id FROM run_attempts a JOIN runs r ON r.run_id = a.run_id WHERE r.session_id = ?`,
      )
      .all(sessionId, sessionId) as { id: string }[]
  ).map((r) => r.id);
}

/** Records the adapter's opaque native session id once; drift or conflation is refused. */
export function recordAdapterNativeSessionId(db: Db, bindingId: string, nativeId: string): void {
  const b = identity(db, bindingId);
  if (b.status !== "active")
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: binding ${bindingId} is stale; start a new attempt, which creates the next binding generation`,
    );
  assertAdapterBindingContract({ ...b, adapterNativeSessionId: nativeId }, kernelIdsOf(db, b.sessionId));
  if (b.adapterNativeSessionId !== null && b.adapterNativeSessionId !== nativeId)
    assertAdapterAttemptResultContract(b, { adapterNativeSessionId: nativeId });
  db.prepare(`UPDATE adapter_bindings SET adapter_native_session_id = ?, updated_at = ? WHERE binding_id = ?`).run(
    nativeId,
    nowIso(),
    bindingId,
  );
}

/** Checks an attempt's terminal result against its binding before the kernel accepts it. */
export function checkAttemptResult(db: Db, bindingId: string, result: { adapterNativeSessionId: string | null }): void {
  const b = identity(db, bindingId);
  assertAdapterAttemptResultContract(b, result, kernelIdsOf(db, b.sessionId));
}

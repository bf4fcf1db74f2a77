// What every control-plane write knows about the kernel that makes it: the owner it serves, the
// workspace it is anchored at, and this process's boot epoch (part of every ledger claim).
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { TurnStatus } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";

export interface KernelScope {
  /** control plane #5: owner authority comes from the kernel's own context, never from a tool argument. */
  ownerId: string;
  workspace: string;
  /**
   * A UUIDv7 minted per kernel process and written into every ledger claim; a claim from another boot
   * cannot complete, so a late result from before a crash never lands (glossary: docs/control-plane.md).
   */
  bootEpoch: string;
}

export interface SessionRow {
  session_id: string;
  owner_id: string;
  workspace: string;
  title: string;
  execution_role: "coordinator" | "leaf";
  /** The credential scope the session was created under, with its exact adapter: `local_user:<adapter>` (glossary: docs/control-plane.md). */
  provider_boundary: string;
  profile_generation: number;
  created_at: string;
  updated_at: string;
}

export interface TurnRow {
  run_id: string;
  session_id: string;
  owner_id: string;
  profile_generation: number;
  context_snapshot_id: string;
  status: TurnStatus;
  reason: string | null;
  created_at: string;
}

/** Loads a session the scope's owner may act on (control plane #5: selectors are validated against the owner). */
export function ownedSession(db: Db, scope: KernelScope, sessionId: string): SessionRow {
  const s = db.prepare(`SELECT * FROM sessions WHERE session_id = ?`).get(sessionId) as SessionRow | undefined;
  if (!s) throw new HearthError(ErrorCode.NotFound, `no session ${sessionId} in this journal; list sessions with \`hearth sessions\``);
  if (s.owner_id !== scope.ownerId)
    throw new HearthError(
      ErrorCode.Refused,
      `refused: session ${sessionId} belongs to another owner; this kernel acts for ${scope.ownerId}`,
    );
  return s;
}

export function ownedTurn(db: Db, scope: KernelScope, turnId: string): TurnRow {
  const r = db.prepare(`SELECT * FROM runs WHERE run_id = ?`).get(turnId) as TurnRow | undefined;
  if (!r) throw new HearthError(ErrorCode.NotFound, `no run ${turnId} in this journal; check the id`);
  if (r.owner_id !== scope.ownerId)
    throw new HearthError(ErrorCode.Refused, `refused: run ${turnId} belongs to another owner; this kernel acts for ${scope.ownerId}`);
  return r;
}

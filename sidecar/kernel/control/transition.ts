// The one writer of status fields: checks the transition against its machine, updates the row only
// if it still holds the expected status and every claimed column (a stale or forged write cannot
// land), and appends its event, all inside the caller's transaction (control plane #20).
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { prepared, type Db } from "../../journal/journal.js";
import type { Machine } from "./stateMachines.js";

export interface TransitionRequest<S extends string> {
  id: string;
  to: S;
  /** When given, the row must be in one of these (in addition to the machine allowing `to`). */
  from?: readonly S[];
  /** Columns the row must still hold (the claim tuple for the ledger). */
  match?: Record<string, string | number | null>;
  /** Extra columns written with the status. */
  set?: Record<string, string | number | null>;
  event: { type: string; sessionId?: string | null; turnId?: string | null; payload?: Record<string, unknown> };
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function appendEvent(
  db: Db,
  event: {
    entityKind: string;
    entityId: string;
    type: string;
    sessionId?: string | null;
    turnId?: string | null;
    payload?: Record<string, unknown>;
  },
  at = nowIso(),
): number {
  const r = prepared(
    db,
    `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at) VALUES (?,?,?,?,?,?,?)`,
  ).run(
    event.entityKind,
    event.entityId,
    event.sessionId ?? null,
    event.turnId ?? null,
    event.type,
    JSON.stringify(event.payload ?? {}),
    at,
  );
  return Number(r.lastInsertRowid);
}

const COLUMN = /^[a-z_]+$/;

/** Moves one row of `machine` to `req.to`; returns the status it left. Throws Conflict when refused. */
export function transition<S extends string>(db: Db, machine: Machine<S>, req: TransitionRequest<S>): S {
  if (!db.inTransaction) throw new Error(`transition of ${machine.entity} ${req.id} outside a transaction: use Journal.withTransaction`);
  const row = prepared(db, `SELECT status FROM ${machine.table} WHERE ${machine.idColumn} = ?`).get(req.id) as { status: S } | undefined;
  if (!row) throw new HearthError(ErrorCode.NotFound, `no ${machine.entity} ${req.id} in the journal; check the id`);
  const from = row.status;
  if (req.from && !req.from.includes(from)) {
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: ${machine.entity} ${req.id} is ${from}, expected ${req.from.join("|")}; reload its state before retrying`,
    );
  }
  if (!(machine.allowed[from] ?? []).includes(req.to)) {
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: ${machine.entity} ${req.id} cannot go from ${from} to ${req.to} (allowed: ${machine.allowed[from]?.join(", ") || "none, it is terminal"})`,
    );
  }
  const at = nowIso();
  const sets = { ...req.set, status: req.to, updated_at: at };
  const match = req.match ?? {};
  for (const c of [...Object.keys(sets), ...Object.keys(match)]) if (!COLUMN.test(c)) throw new Error(`bad column name ${c}`);
  const setSql = Object.keys(sets)
    .map((c) => `${c} = ?`)
    .join(", ");
  const matchSql = Object.keys(match)
    .map((c) => ` AND ${c} IS ?`)
    .join("");
  // Column names only (checked above), never values: a bounded set of texts, so each is compiled once.
  const changed = prepared(db, `UPDATE ${machine.table} SET ${setSql} WHERE ${machine.idColumn} = ?${matchSql} AND status = ?`).run(
    ...Object.values(sets),
    req.id,
    ...Object.values(match),
    from,
  ).changes;
  if (changed !== 1) {
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: ${machine.entity} ${req.id} does not match the claim (${Object.keys(match).join(", ") || "status"}); a stale or forged update cannot land`,
    );
  }
  appendEvent(
    db,
    {
      entityKind: machine.entity,
      entityId: req.id,
      type: req.event.type,
      sessionId: req.event.sessionId,
      turnId: req.event.turnId,
      payload: { from, to: req.to, ...req.event.payload },
    },
    at,
  );
  return from;
}

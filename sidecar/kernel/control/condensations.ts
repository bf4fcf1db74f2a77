// Condensed views of a session's history (issue 13): each is journaled as its own row and event
// naming the range it replaces; the messages themselves are never touched.
import type { Condensation } from "../../../shared/protocol/records.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { appendEvent, nowIso } from "./transition.js";

export interface NewCondensation {
  sessionId: string;
  turnId: string | null;
  trigger: Condensation["trigger"];
  fromSeq: number | null;
  throughSeq: number | null;
  summary: string | null;
  elidedCallIds: readonly string[];
  tokensBefore: number;
  tokensAfter: number;
}

interface Row {
  condensation_id: string;
  run_id: string | null;
  trigger: Condensation["trigger"];
  replaces_from_seq: number | null;
  replaces_through_seq: number | null;
  summary: string | null;
  elided_call_ids_json: string;
  tokens_before: number;
  tokens_after: number;
  created_at: string;
}

export function recordCondensation(db: Db, c: NewCondensation): Condensation {
  const at = nowIso();
  const id = uuidv7();
  db.prepare(`INSERT INTO context_condensations (
      condensation_id, session_id, run_id, trigger,
      replaces_from_seq, replaces_through_seq, summary, elided_call_ids_json,
      tokens_before, tokens_after, created_at)
    VALUES (?,?,?,?, ?,?,?,?, ?,?,?)`).run(
    id,
    c.sessionId,
    c.turnId,
    c.trigger,
    c.fromSeq,
    c.throughSeq,
    c.summary,
    JSON.stringify(c.elidedCallIds),
    c.tokensBefore,
    c.tokensAfter,
    at,
  );
  appendEvent(
    db,
    {
      entityKind: "journal",
      entityId: c.sessionId,
      sessionId: c.sessionId,
      turnId: c.turnId,
      type: "journal.condensed",
      payload: {
        condensationId: id,
        trigger: c.trigger,
        fromSeq: c.fromSeq,
        throughSeq: c.throughSeq,
        elided: c.elidedCallIds.length,
        tokensBefore: c.tokensBefore,
        tokensAfter: c.tokensAfter,
      },
    },
    at,
  );
  return toCondensation(db.prepare(`SELECT * FROM context_condensations WHERE condensation_id = ?`).get(id) as Row);
}

/** Every condensation of the session, oldest first; the last is the view the model is shown. */
export function sessionCondensations(db: Db, sessionId: string): Condensation[] {
  return (
    db.prepare(`SELECT * FROM context_condensations WHERE session_id = ? ORDER BY created_at, condensation_id`).all(sessionId) as Row[]
  ).map(toCondensation);
}

/** The id of the view the session's model is shown now (its latest condensation), or null: admission pins it. */
export function latestCondensationId(db: Db, sessionId: string): string | null {
  return (
    (db
      .prepare(
        `SELECT condensation_id FROM context_condensations WHERE session_id = ? ORDER BY created_at DESC, condensation_id DESC LIMIT 1`,
      )
      .pluck()
      .get(sessionId) as string | undefined) ?? null
  );
}

/** One condensation by id. */
export function condensationById(db: Db, condensationId: string): Condensation {
  return toCondensation(db.prepare(`SELECT * FROM context_condensations WHERE condensation_id = ?`).get(condensationId) as Row);
}

function toCondensation(r: Row): Condensation {
  return {
    condensationId: r.condensation_id,
    trigger: r.trigger,
    // A turn's own condensing journals under its run; the kernel's between turns under none.
    betweenTurns: r.trigger === "automatic" && r.run_id === null,
    fromSeq: r.replaces_from_seq,
    throughSeq: r.replaces_through_seq,
    summary: r.summary,
    elidedCallIds: JSON.parse(r.elided_call_ids_json) as string[],
    tokensBefore: r.tokens_before,
    tokensAfter: r.tokens_after,
    createdAt: r.created_at,
  };
}

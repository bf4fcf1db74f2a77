// Rewinds as the journal keeps them (issue 29 item 1): which messages each active rewind takes out of
// the model's view, which condensed view stays true after them, and the records clients fold by.
import type { RewindFileOutcome, RewindRecord, RewindScope } from "../../../shared/protocol/rewind.js";
import type { HistoryMessage } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";

/** Messages fromSeq..throughSeq of a session, out of the model's view while the rewind stands. */
export interface RewoundRange {
  rewindId: string;
  fromSeq: number;
  throughSeq: number;
}

interface RewindRow {
  rewind_id: string;
  to_seq: number;
  through_seq: number;
  scope: RewindScope;
  created_at: string;
  undone_at: string | null;
}

/** The session's rewinds of the conversation that are not undone: admission pins their ids (control plane #10). */
export function activeRewoundRanges(db: Db, sessionId: string): RewoundRange[] {
  return (
    db
      .prepare(
        `SELECT rewind_id, to_seq, through_seq FROM rewinds
         WHERE session_id = ? AND scope IN ('conversation','both') AND undone_at IS NULL ORDER BY created_at, rewind_id`,
      )
      .all(sessionId) as RewindRow[]
  ).map(toRange);
}

/** The ranges of the rewinds a run pinned at admission; a rewind or its undo after that never changes them. */
export function pinnedRewoundRanges(db: Db, rewindIds: readonly string[]): RewoundRange[] {
  if (rewindIds.length === 0) return [];
  return (
    db
      .prepare(`SELECT rewind_id, to_seq, through_seq FROM rewinds WHERE rewind_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(rewindIds)) as RewindRow[]
  ).map(toRange);
}

export function withoutRewound<M extends Pick<HistoryMessage, "seq">>(messages: readonly M[], ranges: readonly RewoundRange[]): M[] {
  return messages.filter((m) => !ranges.some((r) => m.seq >= r.fromSeq && m.seq <= r.throughSeq));
}

/**
 * The condensed view the session's model may be shown now, or null. A condensation summarizes the
 * messages in view when it was made: one whose range reaches a rewind made or undone after it would
 * show the model a summary of messages it no longer sees (or miss ones it sees again), so it is passed
 * over for the latest one made before it (a tie counts as after: passed over).
 */
export function viewableCondensationId(db: Db, sessionId: string): string | null {
  return (
    (db
      .prepare(
        `SELECT c.condensation_id FROM context_condensations c
         WHERE c.session_id = ? AND NOT EXISTS (
           SELECT 1 FROM rewinds w WHERE w.session_id = c.session_id AND w.scope IN ('conversation','both')
             AND c.replaces_through_seq IS NOT NULL AND w.to_seq <= c.replaces_through_seq
             AND (w.created_at >= c.created_at OR w.undone_at >= c.created_at))
         ORDER BY c.created_at DESC, c.condensation_id DESC LIMIT 1`,
      )
      .pluck()
      .get(sessionId) as string | undefined) ?? null
  );
}

/** Every rewind of the session, oldest first, with what it did to each file. */
export function sessionRewinds(db: Db, sessionId: string): RewindRecord[] {
  const rows = db.prepare(`SELECT * FROM rewinds WHERE session_id = ? ORDER BY created_at, rewind_id`).all(sessionId) as RewindRow[];
  const files = db.prepare(`SELECT path, outcome, message FROM rewind_files WHERE rewind_id = ? ORDER BY rowid`);
  return rows.map((r) => ({
    rewindId: r.rewind_id,
    scope: r.scope,
    fromSeq: r.to_seq,
    throughSeq: r.through_seq,
    createdAt: r.created_at,
    undoneAt: r.undone_at,
    files: files.all(r.rewind_id) as RewindFileOutcome[],
  }));
}

function toRange(r: Pick<RewindRow, "rewind_id" | "to_seq" | "through_seq">): RewoundRange {
  return { rewindId: r.rewind_id, fromSeq: r.to_seq, throughSeq: r.through_seq };
}

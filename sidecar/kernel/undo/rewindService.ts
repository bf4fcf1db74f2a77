// Rewind of a session to one of its user messages, and its undo (issue 29 item 1). A person's request,
// never automatic: previewed first, refused while a turn of the session runs, journaled as one event
// with every file's outcome, and undoable. The conversation part takes the messages from the rewind
// point on out of the model's view (the journal keeps them: control/rewinds.ts); the files part puts
// back what the turns from there on wrote (rewindFiles.ts).
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { RewindFileOutcome, RewindPreview, RewindRecord, RewindScope } from "../../../shared/protocol/rewind.js";
import type { Db, Journal } from "../../journal/journal.js";
import type { FileRestorer } from "../../tools/fileRestore.js";
import type { ControlPlane } from "../control/controlPlane.js";
import { activeRewoundRanges, sessionRewinds } from "../control/rewinds.js";
import { ownedSession } from "../control/scope.js";
import { appendEvent, nowIso } from "../control/transition.js";
import { applyPlan, filesFrom, planFile, previewOf } from "./rewindFiles.js";
import { undoFile, type RewoundFileRow } from "./rewindUndo.js";

export class RewindService {
  constructor(private readonly deps: { journal: Journal; control: ControlPlane; restorer: FileRestorer }) {}

  /** What a rewind to `toSeq` would do, changing nothing. */
  preview(sessionId: string, toSeq: number): RewindPreview {
    const db = this.deps.journal.db;
    ownedSession(db, this.deps.control.scope, sessionId);
    const point = rewindPoint(db, sessionId, toSeq, "files");
    const files = filesFrom(db, sessionId, toSeq).map((f) => previewOf(planFile(this.deps.restorer, f)));
    return { sessionId, toSeq, conversation: point, files };
  }

  rewind(sessionId: string, toSeq: number, scope: RewindScope): RewindRecord {
    const { journal, control, restorer } = this.deps;
    const release = control.holdForRewind(sessionId);
    try {
      const point = rewindPoint(journal.db, sessionId, toSeq, scope);
      const written = scope === "conversation" ? [] : filesFrom(journal.db, sessionId, toSeq);
      if (scope === "files" && written.length === 0)
        throw new HearthError(
          ErrorCode.NotFound,
          `refused: the turns from message #${toSeq} on wrote no files with write_file or edit_file, so there are no files to rewind (files changed by shell commands are not tracked)`,
        );
      const plans = written.map((f) => planFile(restorer, f));
      const files = plans.map((p) => ({ plan: p, outcome: applyPlan(restorer, p) }));
      const rewindId = uuidv7();
      const at = nowIso();
      journal.withTransaction((db) => {
        db.prepare(`INSERT INTO rewinds (rewind_id, session_id, to_seq, through_seq, scope, created_at) VALUES (?,?,?,?,?,?)`).run(
          rewindId,
          sessionId,
          toSeq,
          point.throughSeq,
          scope,
          at,
        );
        const insert = db.prepare(
          `INSERT INTO rewind_files (rewind_id, path, outcome, message, replaced_existed, replaced_content, left_sha256) VALUES (?,?,?,?,?,?,?)`,
        );
        for (const { plan, outcome } of files) {
          const acted = outcome.outcome === "restored" || outcome.outcome === "removed";
          insert.run(
            rewindId,
            plan.path,
            outcome.outcome,
            outcome.message,
            acted ? 1 : null,
            acted ? plan.replaced!.content : null,
            acted ? (plan.put?.sha256 ?? null) : null,
          );
        }
        appendEvent(
          db,
          {
            entityKind: "session",
            entityId: sessionId,
            sessionId,
            turnId: null,
            type: "session.rewound",
            payload: { rewindId, scope, fromSeq: toSeq, throughSeq: point.throughSeq, files: files.map((f) => f.outcome) },
          },
          at,
        );
      });
      return sessionRewinds(journal.db, sessionId).find((r) => r.rewindId === rewindId)!;
    } finally {
      release();
    }
  }

  /** Brings the rewound messages back into view and each file the rewind put back to the bytes it replaced. */
  undo(rewindId: string): { rewindId: string; files: RewindFileOutcome[] } {
    const { journal, control, restorer } = this.deps;
    const row = journal.db.prepare(`SELECT session_id, undone_at FROM rewinds WHERE rewind_id = ?`).get(rewindId) as
      | { session_id: string; undone_at: string | null }
      | undefined;
    if (!row)
      throw new HearthError(ErrorCode.NotFound, `no rewind ${rewindId} in this journal; \`hearth show SESSION\` lists a session's rewinds`);
    ownedSession(journal.db, control.scope, row.session_id);
    if (row.undone_at)
      throw new HearthError(ErrorCode.Conflict, `refused: rewind ${rewindId} was already undone (${row.undone_at}); nothing was changed`);
    const release = control.holdForRewind(row.session_id);
    try {
      const rows = journal.db.prepare(`SELECT * FROM rewind_files WHERE rewind_id = ? ORDER BY rowid`).all(rewindId) as RewoundFileRow[];
      const files = rows.map((r) => undoFile(restorer, r));
      const at = nowIso();
      journal.withTransaction((db) => {
        db.prepare(`UPDATE rewinds SET undone_at = ? WHERE rewind_id = ?`).run(at, rewindId);
        const update = db.prepare(`UPDATE rewind_files SET undo_outcome = ?, undo_message = ? WHERE rewind_id = ? AND path = ?`);
        for (const f of files) update.run(f.outcome, f.message, rewindId, f.path);
        appendEvent(
          db,
          {
            entityKind: "session",
            entityId: row.session_id,
            sessionId: row.session_id,
            turnId: null,
            type: "session.rewind_undone",
            payload: { rewindId, files },
          },
          at,
        );
      });
      return { rewindId, files };
    } finally {
      release();
    }
  }
}

/**
 * The user message at `toSeq` and what a rewind to it takes out of view: it and every later message
 * (through the session's latest) not rewound already. The preview asks as for the files alone: it
 * describes a message out of view too, and the choice that would be refused is refused when asked.
 */
function rewindPoint(db: Db, sessionId: string, toSeq: number, scope: RewindScope): RewindPreview["conversation"] {
  const target = db.prepare(`SELECT role FROM conversation_journal WHERE session_id = ? AND seq = ?`).get(sessionId, toSeq) as
    | { role: string }
    | undefined;
  if (!target)
    throw new HearthError(
      ErrorCode.NotFound,
      `no message #${toSeq} in session ${sessionId}; a rewind goes back to one of its user messages (\`hearth show ${sessionId}\` lists them with their #)`,
    );
  if (target.role !== "user")
    throw new HearthError(
      ErrorCode.InvalidParams,
      `refused: message #${toSeq} is ${target.role === "assistant" ? "an assistant" : `a ${target.role}`} message; a rewind goes back to a user message (the turn it starts and every later one)`,
    );
  const ranges = activeRewoundRanges(db, sessionId);
  // The files alone may go back from a message out of view (the conversation was rewound first).
  const covering = scope === "files" ? undefined : ranges.find((r) => toSeq >= r.fromSeq && toSeq <= r.throughSeq);
  if (covering)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: message #${toSeq} is rewound already (rewind ${covering.rewindId}); undo that rewind first, or rewind to a message in view`,
    );
  const rows = db
    .prepare(`SELECT seq, run_id FROM conversation_journal WHERE session_id = ? AND seq >= ? ORDER BY seq`)
    .all(sessionId, toSeq) as {
    seq: number;
    run_id: string | null;
  }[];
  const inView = rows.filter((r) => !ranges.some((x) => r.seq >= x.fromSeq && r.seq <= x.throughSeq));
  return {
    fromSeq: toSeq,
    throughSeq: rows.at(-1)!.seq,
    messages: inView.length,
    turns: new Set(inView.flatMap((r) => (r.run_id ? [r.run_id] : []))).size,
  };
}

// Undo of a turn's edits (issue 14 item 5). Per file the turn wrote: its bytes before the turn's first
// write and the hash its last write left. An undo is a person's request (turn/undoEdits): each file
// still holding what the turn left is put back (or removed, if the turn created it) through the
// anchored tools; any other file is refused alone. The outcomes are journaled as one event.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type { TurnEdits, UndoFileOutcome } from "../../../shared/protocol/undo.js";
import type { Db, Journal } from "../../journal/journal.js";
import type { FileRestorer } from "../../tools/fileRestore.js";
import { ownedTurn, ownedSession, type KernelScope } from "../control/scope.js";
import { appendEvent, nowIso } from "../control/transition.js";
import { PRE_IMAGE_MAX_BYTES } from "./fileWriteJournal.js";

interface WriteRow {
  run_id: string;
  call_id: string;
  path: string;
  existed_before: 0 | 1;
  before_content: Buffer | null;
  after_sha256: string;
}

/** One file over the whole turn: the first write's pre-image, the last write's result. */
interface FileSpan {
  path: string;
  created: boolean;
  before: Buffer | null;
  afterSha256: string;
}

export class TurnEditsService {
  constructor(private readonly deps: { journal: Journal; scope: KernelScope; restorer: FileRestorer }) {}

  /** The session's turns that wrote files, oldest first, with what is undone already. */
  list(sessionId: string): TurnEdits[] {
    const db = this.deps.journal.db;
    ownedSession(db, this.deps.scope, sessionId);
    const rows = writeRows(db, `w.session_id = ?`, sessionId);
    const undone = new Set(
      (
        db
          .prepare(
            `SELECT u.run_id, u.path FROM file_undos u JOIN runs r ON r.run_id = u.run_id WHERE r.session_id = ? AND u.outcome <> 'refused'`,
          )
          .all(sessionId) as { run_id: string; path: string }[]
      ).map((u) => key(u.run_id, u.path)),
    );
    const byTurn = new Map<string, WriteRow[]>();
    for (const row of rows) byTurn.set(row.run_id, [...(byTurn.get(row.run_id) ?? []), row]);
    return [...byTurn].map(([turnId, runRows]) => ({
      turnId,
      callIds: [...new Set(runRows.map((r) => r.call_id))],
      files: spansOf(runRows).map((f) => ({
        path: f.path,
        change: f.created ? ("created" as const) : ("modified" as const),
        undone: undone.has(key(turnId, f.path)),
        notUndoable: f.created || f.before ? null : notKept(f.path),
      })),
    }));
  }

  /** Undoes what the run wrote, file by file; journaled as `turn.edits_undone` with every outcome. */
  undo(turnId: string): { turnId: string; files: UndoFileOutcome[] } {
    const { journal, scope, restorer } = this.deps;
    const run = ownedTurn(journal.db, scope, turnId);
    if (run.status === "active") {
      throw new HearthError(
        ErrorCode.Conflict,
        `refused: run ${turnId} is still running; its edits can be undone once it ends (stop it or wait for it)`,
      );
    }
    const spans = spansOf(writeRows(journal.db, `w.run_id = ?`, turnId));
    if (spans.length === 0) {
      throw new HearthError(
        ErrorCode.NotFound,
        `refused: run ${turnId} wrote no files with write_file or edit_file, so there is nothing to undo (files changed by shell commands are not tracked)`,
      );
    }
    const done = undoneAt(journal.db, turnId);
    const files = spans.map((f): UndoFileOutcome => {
      const at = done.get(f.path);
      if (at)
        return { path: f.path, outcome: "refused", message: `refused: \`${f.path}\` was already undone (${at}); nothing was changed` };
      const left = { path: f.path, sha256: f.afterSha256 };
      if (f.created) return outcomeOf(f.path, "removed", restorer.remove(left));
      if (!f.before) return { path: f.path, outcome: "refused", message: `refused: ${notKept(f.path)}` };
      return outcomeOf(f.path, "restored", restorer.restore(left, f.before));
    });
    journal.withTransaction((db) => {
      const undoId = uuidv7();
      const at = nowIso();
      const insert = db.prepare(`INSERT INTO file_undos (undo_id, run_id, path, outcome, message, created_at) VALUES (?,?,?,?,?,?)`);
      for (const f of files) insert.run(undoId, turnId, f.path, f.outcome, f.message, at);
      appendEvent(
        db,
        { entityKind: "run", entityId: turnId, sessionId: run.session_id, turnId, type: "turn.edits_undone", payload: { undoId, files } },
        at,
      );
    });
    return { turnId, files };
  }
}

function writeRows(db: Db, where: string, value: string): WriteRow[] {
  return db
    .prepare(
      `SELECT w.run_id, i.call_id, w.path, w.existed_before, w.before_content, w.after_sha256
       FROM file_writes w JOIN tool_invocations i ON i.invocation_id = w.invocation_id WHERE ${where} ORDER BY w.rowid`,
    )
    .all(value) as WriteRow[];
}

function spansOf(rows: readonly WriteRow[]): FileSpan[] {
  const spans = new Map<string, FileSpan>();
  for (const row of rows) {
    const span = spans.get(row.path);
    if (span)
      span.afterSha256 = row.after_sha256; // the turn's last write is what it left
    else
      spans.set(row.path, { path: row.path, created: row.existed_before === 0, before: row.before_content, afterSha256: row.after_sha256 });
  }
  return [...spans.values()];
}

/** When each file of the run was undone, if it was. */
function undoneAt(db: Db, turnId: string): Map<string, string> {
  const rows = db.prepare(`SELECT path, created_at FROM file_undos WHERE run_id = ? AND outcome <> 'refused'`).all(turnId) as {
    path: string;
    created_at: string;
  }[];
  return new Map(rows.map((r) => [r.path, r.created_at]));
}

function outcomeOf(path: string, success: "restored" | "removed", r: { ok: boolean; message: string }): UndoFileOutcome {
  return { path, outcome: r.ok ? success : "refused", message: r.message };
}

function notKept(path: string): string {
  return (
    `\`${path}\` was over ${PRE_IMAGE_MAX_BYTES / (1 << 20)} MiB before the turn, so only its hash was kept and it ` +
    `cannot be put back here; restore it from version control or a backup`
  );
}

function key(turnId: string, path: string): string {
  return `${turnId}\u0000${path}`;
}

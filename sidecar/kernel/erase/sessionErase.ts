// Erase a chat (issue 15): the person's explicit, irreversible request, unlike Delete (hide). In one
// transaction the session's messages, attachments, condensed summaries and task results leave the
// journal, as do the call arguments and results and the kept pre-images of files its turns wrote.
// What stays is structure without content: the session row (untitled, hidden, erased_at set), its
// runs, the ledger's statuses and the append-only events (they hold no message text; a Rename's
// title stays in its event). Refused while a turn of the session runs.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Db, Journal } from "../../journal/journal.js";
import { ownedSession, type KernelScope } from "../control/scope.js";
import { appendEvent, nowIso } from "../control/transition.js";
import { scrubJournal } from "./scrubJournal.js";

const RUNS = `SELECT run_id FROM runs WHERE session_id = ?`;

export class SessionErase {
  constructor(
    private readonly deps: { journal: Journal; scope: KernelScope; running: (sessionId: string) => boolean; log?: (line: string) => void },
  ) {}

  /** Erases the session's content; returns how many messages were removed. */
  erase(sessionId: string): { messages: number } {
    if (this.deps.running(sessionId)) throw busy(sessionId);
    const erased = this.deps.journal.withTransaction((db) => {
      ownedSession(db, this.deps.scope, sessionId);
      const active = db.prepare(`SELECT run_id FROM runs WHERE session_id = ? AND status = 'active'`).get(sessionId);
      if (active) throw busy(sessionId);
      const at = nowIso();
      const messages = db.prepare(`DELETE FROM conversation_journal WHERE session_id = ?`).run(sessionId).changes;
      db.prepare(`DELETE FROM message_attachments WHERE run_id IN (${RUNS})`).run(sessionId);
      db.prepare(`DELETE FROM context_condensations WHERE session_id = ?`).run(sessionId);
      db.prepare(`DELETE FROM artifacts WHERE session_id = ?`).run(sessionId);
      db.prepare(`UPDATE tool_invocations SET input_json = NULL, result_json = NULL WHERE run_id IN (${RUNS})`).run(sessionId);
      db.prepare(`UPDATE file_writes SET before_content = NULL WHERE session_id = ?`).run(sessionId);
      // issue 29: the bytes a rewind replaced (kept for its undo) are the person's files too.
      db.prepare(
        `UPDATE rewind_files SET replaced_content = NULL WHERE rewind_id IN (SELECT rewind_id FROM rewinds WHERE session_id = ?)`,
      ).run(sessionId);
      // A task's session: its instruction and title (the task row and its workstream) go too (issue 24, item 7).
      db.prepare(`UPDATE delegations SET title = '', instruction = NULL WHERE child_session_id = ?`).run(sessionId);
      db.prepare(`UPDATE workstreams SET title = '' WHERE workstream_id = (SELECT workstream_id FROM sessions WHERE session_id = ?)`).run(
        sessionId,
      );
      db.prepare(`UPDATE sessions SET title = '', hidden_at = COALESCE(hidden_at, ?), erased_at = ? WHERE session_id = ?`).run(
        at,
        at,
        sessionId,
      );
      appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: "session.erased", payload: { messages } }, at);
      return { messages };
    });
    scrubJournal(this.deps.journal, this.deps.log ?? (() => {}));
    return erased;
  }

  /** A turn on an erased chat is refused: it has no history left to continue. */
  assertNotErased(sessionId: string): void {
    if (erasedAt(this.deps.journal.db, sessionId))
      throw new HearthError(ErrorCode.Refused, `refused: chat ${sessionId} was erased; its messages are gone. Start a new chat instead`);
  }
}

function erasedAt(db: Db, sessionId: string): string | null {
  const row = db.prepare(`SELECT erased_at FROM sessions WHERE session_id = ?`).get(sessionId) as { erased_at: string | null } | undefined;
  return row?.erased_at ?? null;
}

function busy(sessionId: string): HearthError {
  return new HearthError(
    ErrorCode.Conflict,
    `refused: a turn of chat ${sessionId} is running, and a chat cannot be erased while it runs; press Stop (or wait for the turn to end), then erase it again`,
  );
}

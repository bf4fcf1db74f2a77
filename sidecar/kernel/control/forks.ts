// Fork of a session at one of its user messages (issue 29 item 2): a new session whose history is the
// messages the original's model sees before that message, and which remembers where it came from.
// The fork is a new session (harness #19): its runs pin today's tools and rules at their own
// admission, never the original's pins. The user message itself is handed back as a draft, not sent.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Db } from "../../journal/journal.js";
import { replayMessages } from "./conversation.js";
import { activeRewoundRanges, withoutRewound } from "./rewinds.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { createSession, currentProfile } from "./sessions.js";
import { appendEvent, nowIso } from "./transition.js";

export interface ForkResult {
  sessionId: string;
  /** The text of the user message forked at: the client puts it in the message box to edit and send. */
  draft: string;
  /** Messages copied into the fork (its history). */
  copied: number;
}

/** Where a fork starts: the original, the message handed back, and the history the fork gets. */
export interface ForkPoint {
  sessionId: string;
  atSeq: number;
  title: string;
  /** The text of the user message forked at. */
  draft: string;
  /** The seqs of the original's messages its model sees before that message. */
  historySeqs: number[];
}

/** Checks that `atSeq` is a user message of `sessionId` in its model's view; the caller holds the transaction. */
export function forkPoint(db: Db, scope: KernelScope, sessionId: string, atSeq: number): ForkPoint {
  const original = ownedSession(db, scope, sessionId);
  const target = db.prepare(`SELECT role, body_json FROM conversation_journal WHERE session_id = ? AND seq = ?`).get(sessionId, atSeq) as
    | { role: string; body_json: string }
    | undefined;
  if (!target)
    throw new HearthError(
      ErrorCode.NotFound,
      `no message #${atSeq} in session ${sessionId}; a fork starts at one of its user messages (\`hearth show ${sessionId}\` lists them with their #)`,
    );
  if (target.role !== "user")
    throw new HearthError(
      ErrorCode.InvalidParams,
      `refused: message #${atSeq} is ${target.role === "assistant" ? "an assistant" : `a ${target.role}`} message; a fork starts at a user message (its history is everything before it)`,
    );
  const ranges = activeRewoundRanges(db, sessionId);
  const covering = ranges.find((r) => atSeq >= r.fromSeq && atSeq <= r.throughSeq);
  if (covering)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused: message #${atSeq} is rewound (rewind ${covering.rewindId}), so the model no longer sees it; undo that rewind first, or fork at a message in view`,
    );
  // What the original's model is shown before the message: a failed turn's user message and rewound
  // messages stay out, exactly as its next turn would replay them.
  const history = withoutRewound(replayMessages(db, sessionId), ranges).filter((m) => m.seq < atSeq);
  return {
    sessionId,
    atSeq,
    title: original.title || "Untitled chat",
    draft: (JSON.parse(target.body_json) as { text: string }).text,
    historySeqs: history.map((m) => m.seq),
  };
}

/** Forks `sessionId` at its user message `atSeq` into a new chat; the caller holds the transaction. */
export function forkSession(db: Db, scope: KernelScope, sessionId: string, atSeq: number): ForkResult {
  const point = forkPoint(db, scope, sessionId, atSeq);
  const parent = currentProfile(db, sessionId);
  const { sessionId: forkId } = createSession(db, scope, {
    title: `${point.title} (fork)`,
    model: parent.model_profile,
    role: parent.execution_role,
    systemPrompt: parent.system_prompt,
    options: JSON.parse(parent.options_json),
  });
  copyForkHistory(db, point, forkId);
  return { sessionId: forkId, draft: point.draft, copied: point.historySeqs.length };
}

/**
 * Gives the new session `forkId` the fork point's history and its origin. The rows are copied with
 * their run (a turn's attachments and its outcome stay readable), renumbered from 1 so the fork's #
 * are its own.
 */
export function copyForkHistory(db: Db, point: ForkPoint, forkId: string): void {
  const at = nowIso();
  const copy = db.prepare(
    `INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, result_kind, created_at, updated_at)
     SELECT ?, ?, run_id, role, status, body_json, result_kind, created_at, ? FROM conversation_journal WHERE session_id = ? AND seq = ?`,
  );
  point.historySeqs.forEach((seq, i) => copy.run(forkId, i + 1, at, point.sessionId, seq));
  db.prepare(`INSERT INTO session_forks (session_id, parent_session_id, at_seq, created_at) VALUES (?,?,?,?)`).run(
    forkId,
    point.sessionId,
    point.atSeq,
    at,
  );
  appendEvent(
    db,
    {
      entityKind: "session",
      entityId: forkId,
      sessionId: forkId,
      type: "session.forked",
      payload: { from: point.sessionId, atSeq: point.atSeq, copied: point.historySeqs.length },
    },
    at,
  );
}

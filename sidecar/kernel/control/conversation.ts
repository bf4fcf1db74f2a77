// The conversation journal: the kernel is its only writer; each session's seq is monotonic and
// a batch (assistant message + tool results + their ledger completions) commits as one.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { HistoryMessage, type ToolResultKind } from "../../../shared/protocol/records.js";
import { prepared, type Db } from "../../journal/journal.js";
import { nowIso, appendEvent } from "./transition.js";

/** A message as the turn loop hands it over: a HistoryMessage without its seq (the journal assigns it). */
export type NewMessage =
  | { role: "system"; text: string }
  | { role: "user"; text: string }
  | {
      role: "assistant";
      text: string;
      reasoning?: string;
      toolCalls?: { callId: string; name: string; arguments: Record<string, unknown> }[];
    }
  | { role: "tool"; callId: string; name: string; ok: boolean; output: string; resultKind?: ToolResultKind };

/** The seq the session's next message takes (admission pins it in the snapshot before writing it). */
export function nextSeq(db: Db, sessionId: string): number {
  const { latest } = prepared(db, `SELECT COALESCE(MAX(seq), 0) AS latest FROM conversation_journal WHERE session_id = ?`).get(
    sessionId,
  ) as {
    latest: number;
  };
  return latest + 1;
}

/**
 * Every row is written `complete`: a turn enters the journal only once it is whole. The schema's
 * other statuses (`pending`, `streaming`, `failed`) are left from the first migration; nothing writes them.
 */
function insertComplete(
  db: Db,
  sessionId: string,
  seq: number,
  turnId: string | null,
  message: NewMessage,
  at: string,
  resultKind: ToolResultKind | null,
): void {
  // Validate against the protocol shape so history replays exactly what was stored.
  const checked = HistoryMessage.parse({ seq: 0, ...message });
  // A tool result's kind is the row's typed column (issue 22, item 3), not part of its body.
  const { seq: _ignored, resultKind: _kind, ...body } = checked as HistoryMessage & { resultKind?: ToolResultKind };
  prepared(
    db,
    `INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, result_kind, created_at, updated_at)
     VALUES (?,?,?,?, 'complete', ?,?,?,?)`,
  ).run(sessionId, seq, turnId, message.role, JSON.stringify(body), resultKind, at, at);
}

/** Appends complete messages in order; returns their seqs. Caller holds the transaction. */
export function appendComplete(db: Db, sessionId: string, turnId: string | null, messages: readonly NewMessage[]): number[] {
  const kinds = resultKinds(db, sessionId, turnId, messages);
  const at = nowIso();
  // The batch's seqs follow the session's latest, read once (the caller's transaction holds the write lock).
  const first = messages.length > 0 ? nextSeq(db, sessionId) : 0;
  const seqs = messages.map((m, i) => {
    insertComplete(db, sessionId, first + i, turnId, m, at, m.role === "tool" ? kinds.get(m.callId)! : null);
    return first + i;
  });
  if (seqs.length > 0)
    appendEvent(
      db,
      {
        entityKind: "journal",
        entityId: sessionId,
        sessionId,
        turnId,
        type: "journal.appended",
        payload: { fromSeq: seqs[0], toSeq: seqs.at(-1) },
      },
      at,
    );
  prepared(db, `UPDATE sessions SET updated_at = ? WHERE session_id = ?`).run(at, sessionId);
  return seqs;
}

/** Complete messages in seq order: what clients show. */
export function completeMessages(db: Db, sessionId: string): HistoryMessage[] {
  return toHistory(
    db
      .prepare(`SELECT seq, body_json, result_kind FROM conversation_journal WHERE session_id = ? AND status = 'complete' ORDER BY seq`)
      .all(sessionId),
  );
}

/**
 * A page of what clients show: the latest `limit` complete messages before `beforeSeq`, in seq
 * order, the runs they belong to, and whether older ones remain. Read backwards on the primary key.
 */
export function completeMessagesPage(
  db: Db,
  sessionId: string,
  page: { limit: number; beforeSeq?: number },
): { messages: HistoryMessage[]; turnIds: Set<string>; hasOlder: boolean } {
  const before = page.beforeSeq ?? Number.MAX_SAFE_INTEGER;
  const rows = prepared(
    db,
    `SELECT seq, run_id, body_json, result_kind FROM conversation_journal WHERE session_id = ? AND seq < ? AND status = 'complete' ORDER BY seq DESC LIMIT ?`,
  ).all(sessionId, before, page.limit) as { seq: number; run_id: string | null; body_json: string; result_kind: string | null }[];
  const messages = toHistory(rows.reverse());
  const first = messages[0]?.seq ?? before;
  const older = prepared(db, `SELECT 1 FROM conversation_journal WHERE session_id = ? AND seq < ? AND status = 'complete' LIMIT 1`).get(
    sessionId,
    first,
  );
  return { messages, turnIds: new Set(rows.flatMap((r) => (r.run_id ? [r.run_id] : []))), hasOlder: older !== undefined };
}

/**
 * What a model replays: the complete messages without the user message of a run that failed or was
 * cancelled before anything else of it was committed. harness #13: a failure before any possible
 * tool effect rolls the turn's user message back; the kernel keeps it in the journal (it was committed
 * at admission, and nothing a person typed is lost) but leaves it out of the model's view. A run that
 * committed a call/result batch keeps its user message with the batch. The run's other rows are
 * found by run (`+` keeps the planner off the session's key, which would read the whole session).
 */
export function replayMessages(db: Db, sessionId: string): HistoryMessage[] {
  const rows = db
    .prepare(`
    SELECT c.seq, c.body_json, c.result_kind FROM conversation_journal c
    WHERE c.session_id = ? AND c.status = 'complete'
      AND NOT (c.role = 'user'
        AND EXISTS (SELECT 1 FROM runs r WHERE r.run_id = c.run_id AND r.status IN ('failed', 'cancelled'))
        AND NOT EXISTS (SELECT 1 FROM conversation_journal o
          WHERE o.run_id = c.run_id AND +o.session_id = c.session_id AND o.seq <> c.seq AND o.status = 'complete'))
    ORDER BY c.seq`)
    .all(sessionId);
  return toHistory(rows);
}

function toHistory(rows: unknown[]): HistoryMessage[] {
  return (rows as { seq: number; body_json: string; result_kind: ToolResultKind | null }[]).map((r) =>
    HistoryMessage.parse({ seq: r.seq, ...JSON.parse(r.body_json), ...(r.result_kind ? { resultKind: r.result_kind } : {}) }),
  );
}

/**
 * control plane #8 (physical tool authority): a tool result enters history only as the answer to a call its
 * run made, once, and either echoes its ledger claim's terminal state (ok exactly when the claim
 * succeeded) or, for a call that never reached the ledger, is a refusal (ok false, and its typed kind
 * says why it never ran). Run after the batch's ledger completions, inside the same transaction.
 * Returns each result's kind for its row (issue 22, item 3): "claimed" exactly when the ledger has its
 * claim; otherwise the kind the harness gave it. Nothing here reads the result's words.
 */
function resultKinds(db: Db, sessionId: string, turnId: string | null, messages: readonly NewMessage[]): Map<string, ToolResultKind> {
  const kinds = new Map<string, ToolResultKind>();
  const calls = messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.callId) : []));
  for (const m of messages) {
    if (m.role !== "tool") continue;
    const refuse: (why: string) => never = (why) => {
      throw new HearthError(
        ErrorCode.Conflict,
        `refused: the result of call ${m.callId} (${m.name}) cannot enter history: ${why}; a tool result is written only with its ledger claim`,
      );
    };
    if (turnId === null) refuse("it belongs to no run");
    if (!calls.includes(m.callId) && !callIssuedByRun(db, sessionId, turnId, m.callId)) refuse(`run ${turnId} never made that call`);
    if (resultRecorded(db, sessionId, m.callId) || calls.indexOf(m.callId) !== calls.lastIndexOf(m.callId))
      refuse("the call already has a result");
    const claim = prepared(db, `SELECT status FROM tool_invocations WHERE run_id = ? AND call_id = ?`).get(turnId, m.callId) as
      | { status: string }
      | undefined;
    if (!claim) {
      if (m.ok || m.resultKind === undefined || m.resultKind === "claimed")
        refuse("the ledger has no claim for it, and it is not a refusal of a call that never ran");
    } else if (m.resultKind !== undefined && m.resultKind !== "claimed") {
      refuse(`it says it never reached the ledger (${m.resultKind}) while its ledger claim is ${claim.status}`);
    } else if (claim.status === "prepared" || claim.status === "dispatched") {
      refuse(`its ledger claim is still ${claim.status}; complete the claim in the same commit`);
    } else if (m.ok !== (claim.status === "succeeded")) {
      refuse(`it says ok=${m.ok} while its ledger claim is ${claim.status}`);
    }
    kinds.set(m.callId, claim ? "claimed" : m.resultKind!);
  }
  return kinds;
}

function callIssuedByRun(db: Db, sessionId: string, turnId: string, callId: string): boolean {
  return (
    prepared(
      db,
      `
    SELECT 1 FROM conversation_journal c, json_each(c.body_json, '$.toolCalls') j
    WHERE c.session_id = ? AND c.run_id = ? AND c.role = 'assistant' AND c.status = 'complete' AND json_extract(j.value, '$.callId') = ?`,
    ).get(sessionId, turnId, callId) !== undefined
  );
}

function resultRecorded(db: Db, sessionId: string, callId: string): boolean {
  return (
    prepared(
      db,
      `SELECT 1 FROM conversation_journal WHERE session_id = ? AND role = 'tool' AND status = 'complete' AND json_extract(body_json, '$.callId') = ?`,
    ).get(sessionId, callId) !== undefined
  );
}

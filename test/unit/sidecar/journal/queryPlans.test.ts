// Every statement the kernel runs per turn, per tool call and during reconciliation is planned on an
// index (issue 26, item 1): a journal grows for ever, so a statement that reads a growing table from
// end to end, or through an index whose key most rows share, gets slower every day of use.
//
// The statements are found, not listed: every `.prepare(` (and `prepared(db, …)`, the journal's
// statement cache) in sidecar/kernel and sidecar/journal is
// read from the source, the kernel runs a day's work (turns, tool calls, a task, a crash and its
// reconciliation) through the real ControlPlane with better-sqlite3's prepare recorded, and each
// recorded statement gets EXPLAIN QUERY PLAN. A prepare site the scenario does not run must be named
// in COLD with why it is not hot, so a new statement cannot slip past unplanned.
import Database from "better-sqlite3";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { REPAIR_TABLES } from "../../../../sidecar/kernel/control/batchRepair.js";
import { CLIENT, invocation, openFixture, runningRun, type Fixture } from "../../../support/journalFixture.js";

/** Tables that grow with every turn; a full scan of one is a cost that grows with the journal's age. */
const GROWING = [
  "conversation_journal",
  "tool_invocations",
  "runs",
  "run_attempts",
  "context_snapshots",
  "events",
  "file_writes",
  "artifacts",
  "run_origins",
  "approval_decisions",
];

/** Columns whose values most rows share (every journal row is `complete`, four roles): an index on them alone is a scan. */
const UNSELECTIVE: Record<string, readonly string[]> = { conversation_journal: ["status", "role"] };

/**
 * Prepare sites (by the start of their SQL) that the scenario below does not run, and why they are
 * not on the per-turn, per-call or reconciliation path.
 */
const COLD: Record<string, string> = {
  "INSERT INTO instruction_switches": "a person switching an instruction file on or off (issue 27): one row per path",
  "SELECT u.run_id, u.path FROM file_undos u": "undo of a turn's edits: on a person's request, bounded by the session",
  "INSERT INTO file_undos": "undo of a turn's edits: on a person's request",
  "SELECT w.run_id, i.call_id, w.path": "undo of a turn's edits: on a person's request",
  "SELECT path, created_at FROM file_undos": "undo of a turn's edits: on a person's request",
  "SELECT i.invocation_id, i.run_id, r.session_id FROM tool_invocations i":
    "a write's pre-image: runs through the tool host, planned below",
  "INSERT INTO file_writes": "a write's pre-image: an insert",
  "INSERT INTO message_attachments": "an insert",
  "SELECT kind, path, start_line, end_line, server, bytes": "attachments of a run: by primary key",
  "UPDATE sessions SET hidden_at": "a person's Delete: by primary key",
  "DELETE FROM conversation_journal WHERE session_id": "erase: on a person's explicit request",
  "DELETE FROM message_attachments WHERE run_id IN": "erase: on a person's explicit request",
  "DELETE FROM context_condensations WHERE session_id": "erase: on a person's explicit request",
  "DELETE FROM artifacts WHERE session_id": "erase: on a person's explicit request",
  "UPDATE tool_invocations SET input_json = NULL": "erase: on a person's explicit request",
  "UPDATE file_writes SET before_content = NULL": "erase: on a person's explicit request",
  "UPDATE sessions SET title = '', hidden_at": "erase: on a person's explicit request",
  "SELECT erased_at FROM sessions": "by primary key",
  "SELECT 1 FROM mcp_server_confirmations": "an MCP server's confirmation: by primary key, per server and session build (issue 28)",
  "INSERT OR IGNORE INTO mcp_server_confirmations": "a person's confirmation of an MCP server: an insert",
  "SELECT run_id FROM runs WHERE session_id = ? AND status = 'active'": "by the one-active-run index",
  "UPDATE delegations SET title = '', instruction = NULL": "erase: on a person's explicit request",
  "UPDATE workstreams SET title = ''": "erase: on a person's explicit request",
  "INSERT INTO approval_decisions": "one insert per approval decision (issue 24)",
  "INSERT OR IGNORE INTO run_origins": "one insert per run (issue 24)",
  "INSERT OR IGNORE INTO delegation_origins": "one insert per task (issue 24)",
  "SELECT * FROM approval_decisions WHERE session_id": "a session's decisions with its history: planned below",
  "SELECT o.* FROM run_origins o JOIN runs r": "a session's run origins with its history: planned below",
  "SELECT workspace FROM sessions WHERE session_id": "by primary key",
  "SELECT delegation_id FROM delegations WHERE run_id = ? AND status = 'queued'": "a turn/cancel: planned below",
  "SELECT condensation_id FROM context_condensations WHERE session_id = ? ORDER BY":
    "a run pinned before rewinds existed, resumed: by the session's index",
  "SELECT rewind_id, to_seq, through_seq FROM rewinds WHERE rewind_id IN": "a run's pinned rewinds: by primary key",
  "SELECT w.path, w.existed_before, w.before_sha256": "rewind of the files: on a person's request, planned below",
  "INSERT INTO rewinds": "rewind: on a person's request",
  "UPDATE rewind_files SET replaced_content = NULL": "erase: on a person's explicit request",
  "INSERT INTO rewind_files": "rewind: on a person's request",
  "SELECT session_id, undone_at FROM rewinds": "undo of a rewind: by primary key",
  "SELECT * FROM rewind_files WHERE rewind_id": "undo of a rewind: by primary key",
  "UPDATE rewinds SET undone_at": "undo of a rewind: by primary key",
  "UPDATE rewind_files SET undo_outcome": "undo of a rewind: by primary key",
  "SELECT role, body_json FROM conversation_journal WHERE session_id = ? AND seq = ?": "fork: on a person's request, by primary key",
  "INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_js":
    "fork: on a person's request, one copy per message by primary key",
  "INSERT INTO session_forks": "fork: on a person's request",
  "SELECT role FROM conversation_journal WHERE session_id = ? AND seq = ?": "rewind: by primary key",
  "SELECT seq, run_id FROM conversation_journal WHERE session_id = ? AND seq >= ?": "rewind: on the primary key, planned below",
};

/** Statements planned in every case even if no scenario step reaches them (tool host, erase). */
const EXTRA_PLANNED = [
  "SELECT * FROM approval_decisions WHERE session_id = ? ORDER BY decided_at, decision_id",
  "SELECT o.* FROM run_origins o JOIN runs r ON r.run_id = o.run_id WHERE r.session_id = ? ORDER BY o.created_at, o.run_id",
  "SELECT delegation_id FROM delegations WHERE run_id = ? AND status = 'queued'",
  `SELECT i.invocation_id, i.run_id, r.session_id FROM tool_invocations i JOIN runs r ON r.run_id = i.run_id WHERE i.call_id = ? AND i.status = 'dispatched'`,
  `SELECT w.path, w.existed_before, w.before_sha256, w.before_content, w.after_sha256 FROM file_writes w
   WHERE w.session_id = ? AND w.run_id IN (SELECT run_id FROM conversation_journal WHERE session_id = ? AND seq >= ? AND run_id IS NOT NULL)
   ORDER BY w.rowid`,
  "SELECT seq, run_id FROM conversation_journal WHERE session_id = ? AND seq >= ? ORDER BY seq",
];

const ROOTS = ["sidecar/kernel", "sidecar/journal"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const squash = (sql: string) => sql.replace(/\s+/g, " ").trim();

/** Every `.prepare(` and `prepared(` in the kernel and journal source: its place and the literal SQL up to its first `${`. */
function prepareSites(): { site: string; start: string }[] {
  return ROOTS.flatMap(sourceFiles).flatMap((file) => {
    const text = fs.readFileSync(file, "utf8");
    return [...text.matchAll(/(?:\.prepare|\bprepared)\(\s*(?:\w+,\s*)?(`|"|')([\s\S]*?)\1/g)].map((m) => ({
      site: `${file}:${text.slice(0, m.index).split("\n").length}`,
      start: squash(m[2]!.split("${")[0]!),
    }));
  });
}

/** Records the SQL of every statement prepared while `fn` runs. */
function recordPrepares(fn: () => void): Set<string> {
  const seen = new Set<string>();
  const proto = Database.prototype as unknown as { prepare: (sql: string) => unknown };
  const original = proto.prepare;
  proto.prepare = function (this: unknown, sql: string) {
    seen.add(squash(sql));
    return original.call(this, sql);
  };
  try {
    fn();
  } finally {
    proto.prepare = original;
  }
  return seen;
}

/** A day of use: turns with tool batches, history, a condensation, a background task, a crash and its repair. */
function dayOfUse(f: Fixture): Fixture {
  const run = runningRun(f);
  const c = f.control;
  c.renameSession(run.sessionId, "renamed");
  c.pinAuthority(run.sessionId, { tools: "d1" }, ["read_file"]);
  c.pinAuthority(run.sessionId, { tools: "d1" });
  c.keptTools(run.sessionId); // read as each turn's harness is built (issue 25 item 2)
  c.turnContext(run.turnId);
  c.disabledInstructions(); // read as each turn is admitted (issue 27)
  const read = c.prepareInvocation(invocation(run, "c1", "read_file", "read", { input: { path: "a" } }));
  c.markDispatched(read);
  c.appendMessages(
    run.sessionId,
    run.turnId,
    [
      { role: "assistant", text: "", toolCalls: [{ callId: "c1", name: "read_file", arguments: { path: "a" } }] },
      { role: "tool", callId: "c1", name: "read_file", ok: true, output: "text" },
    ],
    [{ claim: read, outcome: { status: "succeeded" } }],
  );
  // A result of an earlier batch's call, committed on its own (callIssuedByRun).
  const late = c.prepareInvocation(invocation(run, "c2", "read_file", "read", { input: { path: "b" } }));
  c.appendMessages(run.sessionId, run.turnId, [
    { role: "assistant", text: "", toolCalls: [{ callId: "c2", name: "read_file", arguments: { path: "b" } }] },
  ]);
  c.markDispatched(late);
  c.completeInvocation(late, { status: "succeeded" });
  c.appendMessages(run.sessionId, run.turnId, [{ role: "tool", callId: "c2", name: "read_file", ok: true, output: "b" }]);
  c.finishTurn(run.turnId, "completed", undefined, { messages: [{ role: "assistant", text: "done" }] });
  c.history(run.sessionId);
  c.history(run.sessionId, { limit: 2 });
  c.history(run.sessionId, { limit: 2, beforeSeq: 3 });
  c.listSessions();
  c.recordCondensation({
    sessionId: run.sessionId,
    turnId: null,
    trigger: "on_demand",
    fromSeq: 1,
    throughSeq: 2,
    summary: "s",
    elidedCallIds: [],
    tokensBefore: 10,
    tokensAfter: 5,
  });
  c.condensationContext(run.sessionId);
  c.latestCondensation(run.sessionId);
  // A cancelled turn.
  const second = c.admitTurn(run.sessionId, "again", CLIENT);
  c.transitionAttempt(second.turnId, second.attemptId, "starting");
  c.requestCancel(second.turnId, () => true);
  c.acknowledgeCancel(second.turnId, second.attemptId);
  c.finishTurn(second.turnId, "cancelled");
  c.recordRunEnding(second.turnId, { status: "cancelled", unfinishedAnswer: "half" }); // issue 25 item 11
  // A background task, settled; another orphaned, resumed, dismissed.
  const task = c.createTask({ parentSessionId: run.sessionId, title: "t", prompt: "p", model: "scripted:x" }, CLIENT);
  c.queuedTasks();
  c.taskTools(task.sessionId);
  c.markTaskRunning(task.taskId);
  c.transitionAttempt(task.turnId, task.attemptId, "starting");
  c.transitionAttempt(task.turnId, task.attemptId, "running");
  c.appendMessages(task.sessionId, task.turnId, [{ role: "assistant", text: "answer" }]);
  c.finishTurn(task.turnId, "completed");
  c.settleTask(task.taskId, { status: "completed" });
  c.task(task.taskId);
  c.tasks();
  c.taskResult(task.taskId);
  const other = c.createTask({ parentSessionId: null, title: "o", prompt: "p", model: "scripted:x" }, CLIENT);
  c.markTaskRunning(other.taskId);
  c.transitionAttempt(other.turnId, other.attemptId, "starting");
  c.transitionAttempt(other.turnId, other.attemptId, "running");
  c.requestCancel(other.turnId);
  c.finishTurn(other.turnId, "cancelled");
  c.orphanTask(other.taskId, other.attemptId, "shut down");
  c.resumeTask(other.taskId, CLIENT);
  c.cancelIdleTask(other.taskId, "not wanted");
  // The crash shape: a run cut off with a dispatched write and its input, and a running task.
  const cut = c.admitTurn(run.sessionId, "write it", CLIENT);
  c.transitionAttempt(cut.turnId, cut.attemptId, "starting");
  c.transitionAttempt(cut.turnId, cut.attemptId, "running");
  const write = c.prepareInvocation(invocation(cut, "w1", "write_file", "non_idempotent_write", { input: { path: "f.txt", text: "x" } }));
  c.markDispatched(write);
  c.prepareInvocation(invocation(cut, "w2", "write_file", "non_idempotent_write", { input: { path: "g.txt", text: "y" } }));
  const crashed = c.createTask({ parentSessionId: run.sessionId, title: "c", prompt: "p", model: "scripted:x" }, CLIENT);
  c.markTaskRunning(crashed.taskId);
  c.transitionAttempt(crashed.turnId, crashed.attemptId, "starting");
  c.transitionAttempt(crashed.turnId, crashed.attemptId, "running");
  const finished = c.createTask({ parentSessionId: null, title: "f", prompt: "p", model: "scripted:x" }, CLIENT);
  c.markTaskRunning(finished.taskId);
  c.transitionAttempt(finished.turnId, finished.attemptId, "starting");
  c.transitionAttempt(finished.turnId, finished.attemptId, "running");
  c.appendMessages(finished.sessionId, finished.turnId, [{ role: "assistant", text: "answer" }]);
  c.finishTurn(finished.turnId, "completed"); // the kernel died before settling the task
  const restarted = f.restart();
  restarted.control.reconcile();
  restarted.control.dismissTask(crashed.taskId);
  return restarted;
}

/** The plan's problems: full scans of a growing table, or searches only on columns most rows share. */
function planProblems(db: Database.Database, sql: string): string[] {
  const indexTable = new Map(
    (
      db.prepare(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'`).all() as {
        name: string;
        tbl_name: string;
        sql: string | null;
      }[]
    ).map((i) => [i.name, { table: i.tbl_name, partial: /\bWHERE\b/i.test(i.sql ?? "") }]),
  );
  const aliases = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN|,)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = m[1]!;
    if (!GROWING.includes(table)) continue;
    aliases.set(table, table);
    const alias = m[2];
    if (alias && !/^(WHERE|JOIN|ON|LEFT|INNER|CROSS|SET|VALUES|ORDER|GROUP|LIMIT|USING)$/i.test(alias)) aliases.set(alias, table);
  }
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null] as const);
  const namedArgs = named.length > 0 ? [Object.fromEntries(named)] : [];
  let plan: { detail: string }[] | undefined;
  for (let n = 0; n <= 40 && !plan; n++) {
    try {
      plan = stmt.all(...namedArgs, ...new Array(n).fill(null)) as { detail: string }[];
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
  assert.ok(plan, `could not bind the parameters of ${sql}`);
  const problems: string[] = [];
  for (const { detail } of plan) {
    const m = /^(SCAN|SEARCH) (\w+)(?: USING (?:COVERING )?INDEX (\w+))?(?: \((.*)\))?/.exec(detail);
    if (!m) continue;
    const [, op, name, index, constraint] = m;
    const table = (index && indexTable.get(index)?.table) || aliases.get(name!);
    if (!table || !GROWING.includes(table)) continue;
    if (op === "SCAN" && !(index && indexTable.get(index)?.partial)) problems.push(detail);
    if (op === "SEARCH" && constraint && index) {
      const columns = constraint.split(" AND ").map((c) => c.replace(/[<>=!].*$/, "").trim());
      if (columns.every((col) => (UNSELECTIVE[table] ?? []).includes(col))) problems.push(detail);
    }
  }
  return problems;
}

describe("query plans (issue 26, item 1)", () => {
  it("every statement of a turn, a tool call and reconciliation is planned on an index, none scans a growing table", () => {
    let f = openFixture();
    const sql = recordPrepares(() => {
      f = dayOfUse(f);
    });
    try {
      const db = f.journal.db;
      // The repair's working tables live only while reconciliation runs (batchRepair.ts); its statements are planned with them.
      db.exec(REPAIR_TABLES);
      const unplanned = [...sql, ...EXTRA_PLANNED]
        .filter((s) => !s.startsWith("EXPLAIN") && /^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(s))
        .map((s) => ({ sql: s, problems: planProblems(db, s) }))
        .filter((p) => p.problems.length > 0);
      assert.deepEqual(
        unplanned.map((p) => `${p.problems.join("; ")}  <-  ${p.sql}`),
        [],
        "statements planned as a full scan of a growing table: add an index (a migration) or rewrite the query",
      );
    } finally {
      f.close();
    }
  });

  it("every prepare in the kernel and the journal is run by the scenario or named as cold, with why", () => {
    let f = openFixture();
    const sql = recordPrepares(() => {
      f = dayOfUse(f);
    });
    f.close();
    const cold = Object.keys(COLD);
    const missed = prepareSites().filter(
      ({ start }) => ![...sql].some((s) => s.startsWith(start)) && !cold.some((c) => start.startsWith(c)),
    );
    assert.deepEqual(
      missed.map((m) => `${m.site}: ${m.start.slice(0, 80)}`),
      [],
      "prepare sites neither run by the scenario nor in COLD: run them in dayOfUse or say in COLD why they are not hot",
    );
    const stale = cold.filter((c) => !prepareSites().some(({ start }) => start.startsWith(c)));
    assert.deepEqual(stale, [], "COLD names statements that are no longer in the source");
  });
});

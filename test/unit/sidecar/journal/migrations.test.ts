// Numbered migrations that change what existing rows mean (append-only steps, sidecar/journal/migrations.ts).
import assert from "node:assert/strict";
import { it } from "node:test";
import Database from "better-sqlite3";
import { openJournal } from "../../../../sidecar/journal/journal.js";
import { MIGRATIONS } from "../../../../sidecar/journal/migrations.js";
import type { NewMessage } from "../../../../sidecar/kernel/control/conversation.js";
import { invocation, openFixture, runningRun } from "../../../support/journalFixture.js";

/**
 * Takes `db`'s tables and indexes back to what the first `version` migrations made (a later step's
 * columns are the caller's to drop): the file as a journal of that version left it.
 */
function schemaBackTo(version: number, db: Database.Database): void {
  const objects = (d: Database.Database, type: string) =>
    new Map(
      (
        d.prepare(`SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL`).all(type) as { name: string; sql: string }[]
      ).map((o) => [o.name, o.sql]),
    );
  const early = new Database(":memory:");
  for (const step of MIGRATIONS.slice(0, version)) step(early);
  for (const table of objects(db, "table").keys()) if (!objects(early, "table").has(table)) db.exec(`DROP TABLE ${table}`);
  const indexes = objects(db, "index");
  for (const index of indexes.keys()) if (!objects(early, "index").has(index)) db.exec(`DROP INDEX ${index}`);
  for (const [index, sql] of objects(early, "index")) if (!indexes.has(index)) db.exec(sql);
  early.close();
  db.pragma(`user_version = ${version}`);
}

const IDS = ["a", "b", "c", "d", "e"].map((x) => `0190a4c2-7a3e-7c11-8d3f-2b1e4f5a6b7${x}`);

it("issue 22 item 3: v10 fills the typed result kind of every tool row written before it (claimed from the ledger, the rest once from their words)", () => {
  const f = openFixture();
  const run = runningRun(f);
  const claim = f.control.prepareInvocation(invocation(run, IDS[0]!, "read_file", "read", { input: { path: "a" } }));
  f.control.completeInvocation(claim, { status: "failed", reason: "refused: outside the workspace" });
  const unclaimed = [
    ["denied: not now", "denied"],
    ['refused: this session has no tool named "x"', "refused"],
    ["not run: stopped: the model made the same failing call 3 times", "stopped"],
    ["not run: the turn was cancelled", "not_run"],
  ] as const;
  f.control.appendMessages(run.sessionId, run.turnId, [
    { role: "assistant", text: "", toolCalls: IDS.map((callId) => ({ callId, name: "read_file", arguments: {} })) },
    { role: "tool", callId: IDS[0]!, name: "read_file", ok: false, output: "refused: outside the workspace" },
    ...unclaimed.map(
      ([output, resultKind], i): NewMessage => ({ role: "tool", callId: IDS[i + 1]!, name: "read_file", ok: false, output, resultKind }),
    ),
  ]);
  f.close();
  // The file as a journal before v10 left it: no kind column, none of the later steps' tables, schema version 9.
  const raw = new Database(f.file);
  raw.exec("ALTER TABLE conversation_journal DROP COLUMN result_kind;");
  raw.exec("ALTER TABLE runs DROP COLUMN ending_json;"); // a later step's column (issue 25 item 11)
  schemaBackTo(9, raw);
  raw.close();
  const j = openJournal(f.file);
  assert.deepEqual(
    j.db.prepare(`SELECT result_kind FROM conversation_journal WHERE role = 'tool' ORDER BY seq`).pluck().all(),
    ["claimed", ...unclaimed.map(([, kind]) => kind)],
    "a claimed result says `refused: …` yet is claimed: the ledger decides, not the words",
  );
  assert.deepEqual(
    j.db.prepare(`SELECT COUNT(*) FROM conversation_journal WHERE role <> 'tool' AND result_kind IS NOT NULL`).pluck().get(),
    0,
  );
  j.close();
});

it("issue 27 item 1: the instruction switches migration keeps a switch per path; no row means on", () => {
  const f = openFixture();
  assert.deepEqual([...f.control.disabledInstructions()], [], "a new journal has every instruction file on");
  f.control.setInstructionEnabled(".clinerules", false);
  f.control.setInstructionEnabled("AGENTS.md", false);
  f.control.setInstructionEnabled("AGENTS.md", true);
  assert.deepEqual([...f.control.disabledInstructions()], [".clinerules"], "the last switch of a path wins");
  f.close();
});

/** Where the attachment migrations sit in MIGRATIONS (0-based): resources (issue 28), then the editor's context (issue 29). */
const RESOURCE_ATTACHMENTS = 15;
const EDITOR_CONTEXT_ATTACHMENTS = 16;
/** The web page attachments (issue 29 item 3, `@url`), after the run endings (17). */
const URL_ATTACHMENTS = 18;
const IN_FLIGHT_STATUS_INDEXES = 19;

it("issue 28 item 5: the resource attachments migration keeps every earlier attachment row and takes a resource only with its server", () => {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = OFF");
  for (const step of MIGRATIONS.slice(0, RESOURCE_ATTACHMENTS)) step(db);
  db.prepare(
    `INSERT INTO message_attachments (run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at) VALUES ('r',0,'selection','a.ts',2,3,13,'h','t')`,
  ).run();
  MIGRATIONS[RESOURCE_ATTACHMENTS]!(db);
  assert.deepEqual(db.prepare(`SELECT run_id, ordinal, kind, path, start_line, end_line, server, bytes FROM message_attachments`).all(), [
    { run_id: "r", ordinal: 0, kind: "selection", path: "a.ts", start_line: 2, end_line: 3, server: null, bytes: 13 },
  ]);
  const insert = db.prepare(
    `INSERT INTO message_attachments (run_id, ordinal, kind, path, server, bytes, sha256, created_at) VALUES ('r',?,?,?,?,1,'h','t')`,
  );
  insert.run(1, "resource", "demo://doc", "everything");
  assert.throws(() => insert.run(2, "resource", "demo://doc", null), /CHECK constraint failed/, "a resource names its server");
  assert.throws(() => insert.run(3, "file", "a.ts", "everything"), /CHECK constraint failed/, "a file names none");
  db.close();
});

it("issue 29 item 3: the editor context migration keeps every earlier attachment row and takes folders, problems, terminals and changes", () => {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = OFF");
  for (const step of MIGRATIONS.slice(0, EDITOR_CONTEXT_ATTACHMENTS)) step(db);
  const insert = db.prepare(
    `INSERT INTO message_attachments (run_id, ordinal, kind, path, start_line, end_line, server, bytes, sha256, created_at) VALUES ('r',?,?,?,?,?,?,?,'h','t')`,
  );
  insert.run(0, "selection", "a.ts", 2, 3, null, 13);
  insert.run(1, "resource", "demo://doc", null, null, "everything", 5);
  assert.throws(() => insert.run(2, "problems", "workspace", null, null, null, 1), /CHECK constraint failed/, "not before the migration");
  const before = db.prepare(`SELECT * FROM message_attachments ORDER BY ordinal`).all();
  MIGRATIONS[EDITOR_CONTEXT_ATTACHMENTS]!(db);
  assert.deepEqual(db.prepare(`SELECT * FROM message_attachments ORDER BY ordinal`).all(), before, "old rows open unchanged");
  ["folder", "problems", "terminal", "changes"].forEach((kind, i) => insert.run(2 + i, kind, "x", null, null, null, 1));
  assert.throws(() => insert.run(9, "url", "https://example.com", null, null, null, 1), /CHECK constraint failed/);
  assert.throws(
    () => insert.run(9, "terminal", "bash", null, null, "everything", 1),
    /CHECK constraint failed/,
    "only a resource names a server",
  );
  db.close();
});

it("issue 29 item 3: the url attachments migration keeps every earlier attachment row and takes a web page's URL", () => {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = OFF");
  for (const step of MIGRATIONS.slice(0, URL_ATTACHMENTS)) step(db);
  const insert = db.prepare(
    `INSERT INTO message_attachments (run_id, ordinal, kind, path, start_line, end_line, server, bytes, sha256, created_at) VALUES ('r',?,?,?,?,?,?,?,'h','t')`,
  );
  insert.run(0, "changes", ".", null, null, null, 40);
  insert.run(1, "resource", "demo://doc", null, null, "everything", 5);
  assert.throws(() => insert.run(2, "url", "https://example.com", null, null, null, 1), /CHECK constraint failed/, "not before it");
  const before = db.prepare(`SELECT * FROM message_attachments ORDER BY ordinal`).all();
  MIGRATIONS[URL_ATTACHMENTS]!(db);
  assert.deepEqual(db.prepare(`SELECT * FROM message_attachments ORDER BY ordinal`).all(), before, "old rows open unchanged");
  insert.run(2, "url", "https://example.com/a", null, null, null, 90);
  assert.throws(() => insert.run(3, "url", "https://example.com", null, null, "everything", 1), /CHECK constraint failed/);
  db.close();
});

it("issue 26 item 3: after the in-flight status indexes migration a status index holds the rows in flight only, and reconciliation still finds them", () => {
  const f = openFixture();
  const run = runningRun(f);
  const done = f.control.prepareInvocation(invocation(run, IDS[0]!, "read_file", "read", { input: { path: "a" } }));
  f.control.markDispatched(done);
  f.control.completeInvocation(done, { status: "succeeded" });
  f.control.markDispatched(f.control.prepareInvocation(invocation(run, IDS[1]!, "write_file", "non_idempotent_write", { input: {} })));
  f.control.prepareInvocation(invocation(run, IDS[2]!, "read_file", "read", { input: { path: "b" } }));
  f.close();
  // The file as the kernel left it before the step: the full status indexes, schema version 19.
  const raw = new Database(f.file);
  schemaBackTo(IN_FLIGHT_STATUS_INDEXES, raw);
  const entries = (d: Database.Database, index: string) =>
    d.prepare(`SELECT COALESCE(SUM(ncell), 0) FROM dbstat WHERE name = ? AND pagetype = 'leaf'`).pluck().get(index) as number;
  assert.equal(entries(raw, "tool_invocations_status_idx"), 3, "before: every call, the settled one too");
  raw.close();
  const j = openJournal(f.file);
  for (const gone of ["tool_invocations_status_idx", "run_attempts_status_idx", "runs_status_idx"])
    assert.equal(j.db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE name = ?`).pluck().get(gone), 0, gone);
  assert.equal(entries(j.db, "tool_invocations_in_flight_idx"), 2, "the prepared and the dispatched call, not the settled one");
  assert.equal(entries(j.db, "run_attempts_active_idx"), 1);
  assert.equal(entries(j.db, "runs_active_idx"), 1);
  j.close();
  const restarted = openFixture(f.file);
  const report = restarted.control.reconcile();
  assert.deepEqual([report.invocationsFailed, report.invocationsOutcomeUnknown, report.attemptsOrphaned, report.runsFailed], [1, 1, 1, 1]);
  for (const index of ["tool_invocations_in_flight_idx", "run_attempts_active_idx", "runs_active_idx"])
    assert.equal(entries(restarted.journal.db, index), 0, `${index}: nothing left in flight`);
  restarted.close();
});

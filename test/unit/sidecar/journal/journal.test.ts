// The journal file itself: settings, migrations, transactions, refusal on corruption (issue 3).
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { journalIntegrityPath, type IntegrityRecord } from "../../../../shared/journalIntegrity.js";
import { openJournal } from "../../../../sidecar/journal/journal.js";
import { MIGRATIONS } from "../../../../sidecar/journal/migrations.js";
import { journalFile, openFixture, runningRun } from "../../../support/journalFixture.js";

describe("journal (control plane #20)", () => {
  it("opens in WAL with foreign keys, a busy timeout and the latest numbered migration", () => {
    const j = openJournal(journalFile());
    assert.equal(j.db.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(j.db.pragma("foreign_keys", { simple: true }), 1);
    assert.ok((j.db.pragma("busy_timeout", { simple: true }) as number) >= 1000);
    assert.equal(j.db.pragma("user_version", { simple: true }), MIGRATIONS.length);
    j.close();
  });

  it("commits that record dispatched run with synchronous=FULL, others with NORMAL (issue 3 durability)", () => {
    const j = openJournal(journalFile());
    assert.equal(
      j.withTransaction((db) => db.pragma("synchronous", { simple: true }), { durable: true }),
      2,
    );
    assert.equal(
      j.withTransaction((db) => db.pragma("synchronous", { simple: true })),
      1,
    );
    j.close();
  });

  it("withTransaction is BEGIN IMMEDIATE and rolls back everything on throw (transition and event commit together)", () => {
    const j = openJournal(journalFile());
    assert.throws(
      () =>
        j.withTransaction((db) => {
          assert.equal(db.inTransaction, true);
          db.prepare(`INSERT INTO events (entity_kind, entity_id, type, payload_json, created_at) VALUES ('x','y','t','{}','now')`).run();
          throw new Error("boom");
        }),
      /boom/,
    );
    assert.equal((j.db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n, 0);
    // A second connection cannot slip a write between BEGIN IMMEDIATE and COMMIT.
    const other = new Database(j.path, { timeout: 0 });
    assert.throws(
      () =>
        j.withTransaction(() =>
          other
            .prepare(`INSERT INTO events (entity_kind, entity_id, type, payload_json, created_at) VALUES ('x','y','t','{}','now')`)
            .run(),
        ),
      /locked|busy/i,
    );
    other.close();
    j.close();
  });

  it("refuses a corrupted journal with JournalUnavailable that says what to do", () => {
    const file = journalFile();
    const j = openJournal(file);
    j.db.exec(
      "CREATE TABLE filler (x TEXT); INSERT INTO filler SELECT hex(randomblob(500)) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 400) SELECT i FROM c);",
    );
    j.db.pragma("wal_checkpoint(TRUNCATE)");
    j.close();
    const bytes = fs.readFileSync(file);
    for (let off = 4096 * 3; off < bytes.length; off += 4096) bytes.fill(0x5a, off + 100, off + 600);
    fs.writeFileSync(file, bytes);
    assert.throws(
      () => openJournal(file),
      (e: unknown) => {
        assert.ok(e instanceof HearthError);
        assert.equal(e.code, ErrorCode.JournalUnavailable);
        assert.match(e.message, /refused to open the journal .*move (the file|it) aside/);
        return true;
      },
    );
  });

  it("refuses a journal written by a newer schema instead of guessing", () => {
    const file = journalFile();
    openJournal(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    raw.close();
    assert.throws(() => openJournal(file), /newer than this Hearth knows.*update Hearth/);
  });

  it("refuses a file that is not a database", () => {
    const file = journalFile();
    fs.writeFileSync(file, "this is not sqlite ".repeat(100));
    assert.throws(
      () => openJournal(file),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.JournalUnavailable,
    );
  });
});

describe("journal size over time (issue 26, item 5)", () => {
  /** File plus WAL, after a checkpoint that empties the WAL: the space the journal holds on disk. */
  const onDisk = (file: string, db: Database.Database): number => {
    db.pragma("wal_checkpoint(TRUNCATE)");
    return fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
  };

  it("content deleted from the journal gives its pages back to the disk, the file does not keep its peak size", () => {
    const f = openFixture();
    const run = runningRun(f);
    for (let i = 0; i < 96; i++) f.control.appendMessages(run.sessionId, run.turnId, [{ role: "assistant", text: "x".repeat(64 * 1024) }]);
    const peak = onDisk(f.file, f.journal.db);
    // What an erase commits: the session's messages are deleted.
    f.journal.withTransaction((db) => db.prepare(`DELETE FROM conversation_journal WHERE session_id = ?`).run(run.sessionId));
    const after = onDisk(f.file, f.journal.db);
    assert.ok(after < peak / 4, `the journal holds ${after} bytes after its 6 MiB of messages were deleted (peak ${peak})`);
    f.close();
  });

  it("a journal made before incremental vacuum is converted when opened, and keeps its rows", () => {
    const file = journalFile();
    const f = openFixture(file);
    const run = runningRun(f);
    f.close();
    const old = new Database(file);
    old.pragma("auto_vacuum = NONE");
    old.exec("VACUUM");
    assert.equal(old.pragma("auto_vacuum", { simple: true }), 0);
    old.close();
    const j = openJournal(file);
    assert.equal(j.db.pragma("auto_vacuum", { simple: true }), 2, "auto_vacuum is INCREMENTAL");
    assert.equal((j.db.prepare(`SELECT COUNT(*) AS n FROM runs WHERE run_id = ?`).get(run.turnId) as { n: number }).n, 1);
    j.close();
  });

  it("records beside the journal when its integrity was last checked and what the check said, writing no row", () => {
    const file = journalFile();
    const j = openJournal(file);
    const record = JSON.parse(fs.readFileSync(journalIntegrityPath(file), "utf8")) as IntegrityRecord;
    assert.equal(record.result, "ok");
    assert.ok(Date.now() - Date.parse(record.at) < 60_000);
    assert.equal(fs.statSync(journalIntegrityPath(file)).mode & 0o777, 0o600);
    j.close();
  });
});

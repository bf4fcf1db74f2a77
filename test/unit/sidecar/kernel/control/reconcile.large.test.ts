// A startup repair large enough to checkpoint on a worker thread (issue 16) keeps every promise of a
// small one: calls closed truthfully, batches back in history with the same bodies, a second open
// changes nothing, integrity ok.
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { uuidv7 } from "../../../../../shared/ids.js";
import { openJournal } from "../../../../../sidecar/journal/journal.js";
import { REPAIR } from "../../../../../sidecar/kernel/control/reconcile.js";
import { BACKGROUND_CHECKPOINT_ROWS, checkpointInBackground } from "../../../../../sidecar/kernel/control/walCheckpoint.js";
import { count, journalFile, openFixture } from "../../../../support/journalFixture.js";

/** `runs` runs a dead kernel left in flight: attempt running, user message in history, one dispatched call with its input. */
function seed(file: string, runs: number): void {
  const journal = openJournal(file);
  journal.withTransaction((db) => {
    const at = new Date().toISOString();
    const perSession = 50;
    let sessionId = "";
    for (let i = 0; i < runs; i++) {
      if (i % perSession === 0) {
        sessionId = uuidv7();
        db.prepare(
          `INSERT INTO sessions (session_id, owner_id, workspace, title, execution_role, provider_boundary, profile_generation, created_at, updated_at)
           VALUES (?, 'local:tester', '/ws', '', 'coordinator', 'local_user:scripted', 1, ?, ?)`,
        ).run(sessionId, at, at);
        db.prepare(
          `INSERT INTO session_execution_profiles (session_id, generation, adapter, credential_scope, model_profile, working_directory, execution_role, system_prompt, options_json, created_at)
           VALUES (?, 1, 'scripted', 'local_user', 'scripted:x', '/ws', 'coordinator', '', '{}', ?)`,
        ).run(sessionId, at);
      }
      const [turnId, attemptId, snapshotId] = [uuidv7(), uuidv7(), uuidv7()];
      db.prepare(
        `INSERT INTO context_snapshots (snapshot_id, session_id, generation, content_version, renderer_fingerprint, body_json, created_at)
         VALUES (?, ?, ?, 'v', 'f', '{}', ?)`,
      ).run(snapshotId, sessionId, (i % perSession) + 1, at);
      // One active run per session: the older ones were closed by an older build that left their attempt running.
      db.prepare(
        `INSERT INTO runs (run_id, session_id, owner_id, profile_generation, context_snapshot_id, status, created_at, updated_at)
         VALUES (?, ?, 'local:tester', 1, ?, ?, ?, ?)`,
      ).run(turnId, sessionId, snapshotId, i % perSession === perSession - 1 || i === runs - 1 ? "active" : "failed", at, at);
      db.prepare(
        `INSERT INTO run_attempts (attempt_id, run_id, attempt_number, status, created_at, updated_at) VALUES (?, ?, 1, 'running', ?, ?)`,
      ).run(attemptId, turnId, at, at);
      db.prepare(
        `INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, created_at, updated_at)
         VALUES (?, ?, ?, 'user', 'complete', ?, ?, ?)`,
      ).run(sessionId, (i % perSession) + 1, turnId, JSON.stringify({ role: "user", text: `write f${i % perSession}` }), at, at);
      db.prepare(
        `INSERT INTO tool_invocations (invocation_id, run_id, attempt_id, call_id, tool, input_hash, manifest_digest, boot_epoch, status,
           effect_class, retry_policy, input_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'write_file', 'h', 'm', 'old', 'dispatched', 'non_idempotent_write', 'never_auto_retry', ?, ?, ?)`,
      ).run(
        uuidv7(),
        turnId,
        attemptId,
        `call-${i % perSession}`,
        JSON.stringify({ path: `f${i % perSession}.txt`, text: "é\n\u0001" }),
        at,
        at,
      );
    }
  });
  journal.close();
}

/** The first session's history bodies, in seq order. */
function firstSessionBodies(file: string): string[] {
  const f = openFixture(file);
  const bodies = f.journal.db
    .prepare(
      `SELECT body_json AS b FROM conversation_journal WHERE session_id = (SELECT session_id FROM sessions ORDER BY session_id LIMIT 1) ORDER BY seq`,
    )
    .all() as { b: string }[];
  f.close();
  return bodies.map((r) => r.b);
}

describe("a large startup repair (issue 16)", () => {
  it("closes every call, restores every batch with the same bodies as a small repair, and a second open changes nothing", () => {
    // Each run changes at least four rows (call, attempt and their events) before its batch returns to history.
    const runs = Math.ceil(BACKGROUND_CHECKPOINT_ROWS / 4) + 50;
    const large = journalFile();
    const small = journalFile();
    seed(large, runs);
    seed(small, 50);
    let f = openFixture(large).restart();
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE status IN ('prepared','dispatched')`), 0);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE reason = ?`, REPAIR.afterDispatch), runs);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM run_attempts WHERE status <> 'orphaned'`), 0);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM runs WHERE status = 'active'`), 0);
    assert.equal(
      count(f.journal, `SELECT COUNT(*) AS n FROM conversation_journal WHERE role = 'tool'`),
      runs,
      "every batch is back in history",
    );
    f = f.restart(); // openJournal's integrity_check runs on the way in
    assert.equal(count(f.journal, "SELECT total_changes() AS n"), 0, "a second reconciliation changes no row");
    f.close();
    openFixture(small).restart().close();
    assert.deepEqual(firstSessionBodies(large), firstSessionBodies(small), "the same history as a small repair");
  });

  it("issue 26 item 3: many cut-off runs of one session go back in run order, each batch right after the one before", () => {
    const file = journalFile();
    seed(file, 50);
    const f = openFixture(file).restart();
    const sessionId = f.journal.db.prepare(`SELECT session_id FROM sessions ORDER BY session_id LIMIT 1`).pluck().get() as string;
    const messages = f.control.history(sessionId).messages;
    assert.deepEqual(
      messages.map((m) => m.seq),
      messages.map((_, i) => i + 1),
      "seqs stay contiguous",
    );
    const repaired = messages.slice(50);
    assert.equal(repaired.length, 100, "each of the 50 runs gets its call and its result after the 50 user messages");
    for (let i = 0; i < 50; i++) {
      const [call, result] = [repaired[2 * i]!, repaired[2 * i + 1]!];
      assert.ok(call.role === "assistant" && result.role === "tool", `run ${i}: the call, then its result`);
      assert.deepEqual(
        call.toolCalls.map((c) => c.callId),
        [`call-${i}`],
        `run ${i}'s batch is the ${i}th repaired`,
      );
      assert.equal(result.callId, `call-${i}`);
    }
    f.close();
  });

  it("issue 16: a large repair commits without the automatic checkpoint, a worker copies the WAL, and the connection's settings come back", async () => {
    const file = journalFile();
    seed(file, Math.ceil(BACKGROUND_CHECKPOINT_ROWS / 4) + 50);
    const f = openFixture(file);
    const autoCheckpoint = f.journal.db.pragma("wal_autocheckpoint", { simple: true });
    const before = fs.statSync(file).size;
    assert.ok(f.control.reconcile().invocationsOutcomeUnknown > 0);
    // Read at once: a worker thread takes far longer to start than this statement.
    assert.equal(fs.statSync(file).size, before, "the commit left its pages in the WAL: no checkpoint on the kernel's thread");
    assert.equal(f.journal.db.pragma("wal_autocheckpoint", { simple: true }), autoCheckpoint, "the automatic checkpoint is back on");
    const deadline = Date.now() + 5000;
    while (fs.statSync(file).size === before && Date.now() < deadline) await sleep(10);
    assert.ok(fs.statSync(file).size > before, "the background checkpoint copied the repair into the database file");
    f.close();
  });

  it("checkpointInBackground copies the WAL into the database file from a worker thread", async () => {
    const file = journalFile();
    const journal = openJournal(file);
    journal.db.pragma("wal_autocheckpoint = 0");
    journal.withTransaction((db) => {
      const insert = db.prepare(
        `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at) VALUES ('test', ?, NULL, NULL, 'test', '{}', 't')`,
      );
      for (let i = 0; i < 5000; i++) insert.run(String(i));
    });
    const keepAlive = setInterval(() => undefined, 1000); // the worker is unref'd: it never holds a kernel open
    const result = await checkpointInBackground(file).finally(() => clearInterval(keepAlive));
    assert.ok(result !== null && result.log > 0, `a checkpoint ran: ${JSON.stringify(result)}`);
    assert.equal(result.checkpointed, result.log, "every frame copied: the kernel's connection had no read open");
    journal.close();
    const reopened = openJournal(file); // integrity_check
    assert.equal(count(reopened, `SELECT COUNT(*) AS n FROM events WHERE entity_kind = 'test'`), 5000);
    reopened.close();
  });
});

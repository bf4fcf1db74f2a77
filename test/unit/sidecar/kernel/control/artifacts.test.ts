// artifacts.ts: a run's artifact (a task's result) is a kernel-minted id owned by the task's session, with its row and
// an artifact.recorded event (control plane #1, #20; docs/tasks.md), on a real SQLite journal (issue 11).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLIENT, openFixture } from "../../../../support/journalFixture.js";

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("artifacts (control plane #1, #20)", () => {
  it("control plane #1 #20: a completed task's result is an artifact row with a kernel id, filed as artifact.recorded under its session and run", () => {
    const f = openFixture();
    const t = f.control.createTask({ parentSessionId: null, title: "inventory", prompt: "count", model: "scripted:x" }, CLIENT);
    f.control.markTaskRunning(t.taskId);
    f.control.transitionAttempt(t.turnId, t.attemptId, "starting");
    f.control.transitionAttempt(t.turnId, t.attemptId, "running");
    f.control.appendMessages(t.sessionId, t.turnId, [{ role: "assistant", text: "12 files" }]);
    f.control.finishTurn(t.turnId, "completed");
    f.control.settleTask(t.taskId, { status: "completed" });
    const rows = f.journal.db.prepare(`SELECT * FROM artifacts`).all() as {
      artifact_id: string;
      session_id: string;
      run_id: string;
      kind: string;
      title: string;
      body_json: string;
      created_at: string;
    }[];
    assert.equal(rows.length, 1);
    const a = rows[0]!;
    assert.match(a.artifact_id, UUIDV7);
    assert.deepEqual(
      { session: a.session_id, run: a.run_id, kind: a.kind, title: a.title, body: JSON.parse(a.body_json) as unknown },
      { session: t.sessionId, run: t.turnId, kind: "task_result", title: "inventory", body: { text: "12 files" } },
    );
    assert.equal(f.control.task(t.taskId).resultArtifactId, a.artifact_id);
    const ev = f.journal.db
      .prepare(`SELECT entity_kind, session_id, run_id, type, payload_json, created_at FROM events WHERE entity_id = ?`)
      .all(a.artifact_id) as {
      entity_kind: string;
      session_id: string;
      run_id: string;
      type: string;
      payload_json: string;
      created_at: string;
    }[];
    assert.deepEqual(
      ev.map((e) => ({ ...e, payload_json: JSON.parse(e.payload_json) as unknown })),
      [
        {
          entity_kind: "artifact",
          session_id: t.sessionId,
          run_id: t.turnId,
          type: "artifact.recorded",
          payload_json: { kind: "task_result" },
          created_at: a.created_at,
        },
      ],
    );
    f.close();
  });
});

// control plane #4: each background task has a workstream of its own, recorded with its event, and the
// task's leaf session is filed under it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { isUuidv7 } from "../../../../../shared/ids.js";
import { CLIENT, openFixture } from "../../../../support/journalFixture.js";

it("control plane #4: each task gets a new workstream (owner, workspace, title, workstream.created) and its session is filed under it", () => {
  const f = openFixture();
  const parent = f.control.createSession({ model: "scripted:x" }).sessionId;
  const made = ["first task", "second task"].map((title) => {
    const t = f.control.createTask({ parentSessionId: parent, title, prompt: "do it", model: "scripted:x" }, CLIENT);
    return { title, sessionId: t.sessionId, workstreamId: f.control.task(t.taskId).workstreamId };
  });
  assert.notEqual(made[0]!.workstreamId, made[1]!.workstreamId, "no task reuses another's workstream");
  for (const { title, sessionId, workstreamId } of made) {
    assert.ok(workstreamId && isUuidv7(workstreamId), String(workstreamId));
    assert.deepEqual(f.journal.db.prepare(`SELECT owner_id, workspace, title FROM workstreams WHERE workstream_id = ?`).get(workstreamId), {
      owner_id: f.scope.ownerId,
      workspace: f.scope.workspace,
      title,
    });
    assert.deepEqual(f.journal.db.prepare(`SELECT workstream_id FROM sessions WHERE session_id = ?`).get(sessionId), {
      workstream_id: workstreamId,
    });
    assert.deepEqual(f.journal.db.prepare(`SELECT entity_kind, type FROM events WHERE entity_id = ?`).all(workstreamId), [
      { entity_kind: "workstream", type: "workstream.created" },
    ]);
  }
  f.close();
});

// A run is built from the context snapshot pinned at its admission (control plane #10, issue 11 item 13): the
// model sees neither a message committed while the run waited for its model nor a newer profile.
import assert from "node:assert/strict";
import { it } from "node:test";
import { kernelPartsLoadingModel, requestContext } from "../../support/inProcessTurns.js";

it("issue 11 item 13: a queued run executes with its pinned snapshot, not with sources that changed while it waited", async () => {
  const { k, loaded } = kernelPartsLoadingModel();
  // The round fails unless the request's user messages are exactly these (what the model is shown).
  const { sessionId } = k.scriptedSession([{ expectUsers: ["earlier", "the question"], text: ["answered"] }], "pinned.json");
  k.control.appendMessages(sessionId, null, [{ role: "user", text: "earlier" }]);
  const { turnId } = k.turns.start({ sessionId, message: "the question" }, requestContext(k.client));
  // While the model loads: a session-level message, and a newer profile generation naming another
  // model (written directly: the API refuses a migration while a run is active).
  k.control.appendMessages(sessionId, null, [{ role: "user", text: "committed after admission" }]);
  k.journal.db.exec(
    `INSERT INTO session_execution_profiles SELECT session_id, 2, adapter, credential_scope, 'scripted:/nonexistent.json', working_directory, execution_role, 'newer prompt', options_json, created_at FROM session_execution_profiles WHERE session_id = '${sessionId}'`,
  );
  k.journal.db.prepare(`UPDATE sessions SET profile_generation = 2 WHERE session_id = ?`).run(sessionId);
  loaded();
  const completed = await k.completion();
  assert.equal(completed.status, "completed", completed.error?.message);
  assert.equal(k.control.history(sessionId).runs.find((r) => r.turnId === turnId)!.status, "completed");
  await k.close();
});

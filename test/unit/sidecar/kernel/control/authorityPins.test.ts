// harness #19: a session's tool authority is pinned by its first turn, durably, and never re-pinned.
import assert from "node:assert/strict";
import { it } from "node:test";
import { count, openFixture } from "../../../../support/journalFixture.js";

const FIRST = { tools: "digest-tools-a", workspace: "digest-ws", ceilings: "digest-ceilings" };
const DRIFTED = { tools: "digest-tools-b", workspace: "digest-ws", ceilings: "digest-ceilings" };

it("harness #19: the first turn pins the session's authority; a later turn under other authority gets the first pin back, also after a restart", () => {
  let f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:x" });
  assert.deepEqual(f.control.pinAuthority(sessionId, FIRST), FIRST, "nothing pinned yet: the current authority is pinned");
  assert.deepEqual(f.control.pinAuthority(sessionId, DRIFTED), FIRST, "a pin in force is never replaced");
  f = f.restart();
  assert.deepEqual(f.control.pinAuthority(sessionId, DRIFTED), FIRST, "the pin is as durable as the journal");
  f.close();
});

it("harness #19: each session has a pin of its own", () => {
  const f = openFixture();
  const a = f.control.createSession({ model: "scripted:x" }).sessionId;
  const b = f.control.createSession({ model: "scripted:x" }).sessionId;
  f.control.pinAuthority(a, FIRST);
  assert.deepEqual(f.control.pinAuthority(b, DRIFTED), DRIFTED, "another session's pin does not apply");
  assert.deepEqual(f.control.pinAuthority(a, DRIFTED), FIRST);
  f.close();
});

it("harness #19: the pin is one immutable `session.authority_pinned` event of the session, with the digests", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:x" });
  f.control.pinAuthority(sessionId, FIRST);
  f.control.pinAuthority(sessionId, DRIFTED);
  const rows = f.journal.db
    .prepare(`SELECT entity_kind, entity_id, session_id, type, payload_json FROM events WHERE entity_id = ? AND type <> 'session.created'`)
    .all(sessionId) as { entity_kind: string; entity_id: string; session_id: string; type: string; payload_json: string }[];
  assert.equal(rows.length, 1, "a second pin writes nothing");
  assert.deepEqual(
    { ...rows[0]!, payload_json: JSON.parse(rows[0]!.payload_json) },
    { entity_kind: "session", entity_id: sessionId, session_id: sessionId, type: "session.authority_pinned", payload_json: FIRST },
  );
  assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM events WHERE type = 'session.authority_pinned'`), 1);
  f.close();
});

it("issue 25 item 2: the pin names the tools it covers, so a session can ask to go on with them", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:x" });
  assert.equal(f.control.authorityPin(sessionId), null, "no pin before the first turn");
  f.control.pinAuthority(sessionId, FIRST, ["list_dir", "read_file"]);
  f.control.pinAuthority(sessionId, DRIFTED, ["read_file"]);
  assert.deepEqual(f.control.authorityPin(sessionId), { digests: FIRST, toolNames: ["list_dir", "read_file"] });
  f.close();
});

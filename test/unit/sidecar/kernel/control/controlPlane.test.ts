// controlPlane.ts: the session calls no other unit test reaches in-process (rename, hide, the authority pin), each
// through the real ControlPlane on a real SQLite journal (issue 11).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openFixture } from "../../../../support/journalFixture.js";

describe("ControlPlane session calls", () => {
  it("docs/chat-view.md: a renamed session is returned and listed with its new title, recorded as session.renamed", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ title: "old", model: "scripted:demo" });
    const s = f.control.renameSession(sessionId, "new title");
    assert.deepEqual({ id: s.sessionId, title: s.title }, { id: sessionId, title: "new title" });
    assert.equal(f.control.listSessions()[0]?.title, "new title");
    const ev = f.journal.db.prepare(`SELECT payload_json FROM events WHERE session_id = ? AND type = 'session.renamed'`).all(sessionId) as {
      payload_json: string;
    }[];
    assert.deepEqual(
      ev.map((e) => JSON.parse(e.payload_json) as unknown),
      [{ title: "new title" }],
    );
    f.close();
  });

  it("docs/chat-view.md: a hidden session leaves session/list but keeps its journal", () => {
    const f = openFixture();
    const { sessionId: kept } = f.control.createSession({ title: "kept", model: "scripted:demo" });
    const { sessionId: hidden } = f.control.createSession({ title: "hidden", model: "scripted:demo" });
    f.control.hideSession(hidden);
    assert.deepEqual(
      f.control.listSessions().map((s) => s.sessionId),
      [kept],
    );
    assert.equal(f.control.history(hidden).session.title, "hidden", "its rows stay in the journal");
    f.close();
  });

  it("harness #19: a session's first pinned authority stays in force; a later turn's different digests do not replace it", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ title: "t", model: "scripted:demo" });
    const { sessionId: other } = f.control.createSession({ title: "u", model: "scripted:demo" });
    const first = { tools: "digest-a", workspace: "w" };
    assert.deepEqual(f.control.pinAuthority(sessionId, first), first);
    assert.deepEqual(f.control.pinAuthority(sessionId, { tools: "digest-b", workspace: "w" }), first);
    assert.deepEqual(f.control.pinAuthority(other, { tools: "digest-b", workspace: "w" }), { tools: "digest-b", workspace: "w" });
    f.close();
  });
});

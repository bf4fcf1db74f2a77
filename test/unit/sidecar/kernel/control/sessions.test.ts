// Sessions (control plane #3, #17, #18; issue 15's rename and hide): what createSession records, what
// listSessions returns, and that rename and hide change only what they say, each with its event.
import assert from "node:assert/strict";
import { it } from "node:test";
import { openFixture, type Fixture } from "../../../../support/journalFixture.js";

type EventRow = { entity_kind: string; entity_id: string; session_id: string | null; type: string; payload: unknown };

function sessionEvents(f: Fixture, sessionId: string): EventRow[] {
  return (
    f.journal.db
      .prepare(`SELECT entity_kind, entity_id, session_id, type, payload_json FROM events WHERE entity_id = ? ORDER BY event_seq`)
      .all(sessionId) as (Omit<EventRow, "payload"> & { payload_json: string })[]
  ).map(({ payload_json, ...r }) => ({ ...r, payload: JSON.parse(payload_json) }));
}

const sessionRow = (f: Fixture, sessionId: string) =>
  f.journal.db
    .prepare(`SELECT title, execution_role, updated_at, hidden_at, workstream_id FROM sessions WHERE session_id = ?`)
    .get(sessionId) as {
    title: string;
    execution_role: string;
    updated_at: string;
    hidden_at: string | null;
    workstream_id: string | null;
  };

it("control plane #3, #18: a session given only a model is an untitled coordinator in no workstream, with an empty system prompt and its session.created event", () => {
  const f = openFixture();
  const { sessionId, profileGeneration } = f.control.createSession({ model: "scripted:x" });
  assert.equal(profileGeneration, 1);
  const row = sessionRow(f, sessionId);
  assert.deepEqual([row.title, row.execution_role, row.workstream_id], ["", "coordinator", null]);
  const profile = f.control.profile(sessionId);
  // An empty system prompt is what makes a turn use the kernel's default instructions (sessionAgent.ts).
  assert.equal(profile.system_prompt, "");
  assert.equal(profile.options_json, "{}");
  assert.deepEqual(sessionEvents(f, sessionId), [
    {
      entity_kind: "session",
      entity_id: sessionId,
      session_id: sessionId,
      type: "session.created",
      payload: { role: "coordinator", adapter: "scripted", profileGeneration: 1 },
    },
  ]);
  f.close();
});

it("control plane #3: a session's profile keeps the title, role, system prompt and options it was created with", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({
    title: "t",
    model: "scripted:x",
    role: "leaf",
    systemPrompt: "be brief",
    options: { temperature: 0.5 },
  });
  const profile = f.control.profile(sessionId);
  assert.deepEqual(
    [sessionRow(f, sessionId).title, profile.execution_role, profile.system_prompt, JSON.parse(profile.options_json)],
    ["t", "leaf", "be brief", { temperature: 0.5 }],
  );
  assert.deepEqual(sessionEvents(f, sessionId)[0]!.payload, { role: "leaf", adapter: "scripted", profileGeneration: 1 });
  f.close();
});

it("control plane #17: a session created with no model records none (its turn is refused as unset), under the llama boundary", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({});
  const profile = f.control.profile(sessionId);
  assert.deepEqual([profile.model_profile, profile.adapter], ["", "llama"]);
  assert.equal(f.control.history(sessionId).session.model, "");
  f.close();
});

it("session/list: this owner's sessions, each as its summary", () => {
  const f = openFixture();
  const a = f.control.createSession({ title: "first", model: "scripted:a" }).sessionId;
  const b = f.control.createSession({ title: "second", model: "scripted:b", role: "leaf" }).sessionId;
  const listed = f.control.listSessions().map((s) => [s.sessionId, s.title, s.role, s.adapter, s.model, s.activeTurnId]);
  assert.deepEqual(
    listed.sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
    [
      [a, "first", "coordinator", "scripted", "scripted:a", null],
      [b, "second", "leaf", "scripted", "scripted:b", null],
    ],
  );
  assert.equal(f.control.listSessions(1).length, 1, "the limit applies");
  f.close();
});

it("issue 15: rename changes the title everywhere, not the list order (updated_at), and files session.renamed with the title", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ title: "old", model: "scripted:x" });
  const before = sessionRow(f, sessionId);
  const summary = f.control.renameSession(sessionId, "new title");
  assert.equal(summary.title, "new title");
  assert.equal(summary.sessionId, sessionId);
  assert.equal(f.control.history(sessionId).session.title, "new title");
  assert.equal(f.control.listSessions()[0]!.title, "new title");
  assert.equal(sessionRow(f, sessionId).updated_at, before.updated_at, "renaming does not move the chat in the list");
  assert.deepEqual(sessionEvents(f, sessionId).at(-1), {
    entity_kind: "session",
    entity_id: sessionId,
    session_id: sessionId,
    type: "session.renamed",
    payload: { title: "new title" },
  });
  f.close();
});

it("issue 15: hide leaves a session out of session/list only; the journal keeps it, and a second hide keeps the first time", () => {
  const f = openFixture();
  const kept = f.control.createSession({ title: "kept", model: "scripted:x" }).sessionId;
  const hidden = f.control.createSession({ title: "hidden", model: "scripted:x" }).sessionId;
  f.control.hideSession(hidden);
  assert.deepEqual(
    f.control.listSessions().map((s) => s.sessionId),
    [kept],
  );
  assert.equal(f.control.history(hidden).session.title, "hidden", "a hidden chat still loads");
  const at = sessionRow(f, hidden).hidden_at;
  assert.ok(at);
  assert.equal(sessionRow(f, kept).hidden_at, null);
  assert.deepEqual(sessionEvents(f, hidden).at(-1), {
    entity_kind: "session",
    entity_id: hidden,
    session_id: hidden,
    type: "session.hidden",
    payload: {},
  });
  f.control.hideSession(hidden);
  assert.equal(sessionRow(f, hidden).hidden_at, at);
  f.close();
});

// Fork on a real journal (issue 29 item 2): a fork's first run is shown exactly what the original's
// model saw before the forked message (a rewound part stays out), the original is left as it was,
// the fork is listed with its origin, and a fork point that is not a user message in view is refused.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ErrorCode } from "../../../../../shared/errors.js";
import type { HistoryMessage } from "../../../../../shared/protocol/records.js";
import { completedTurn as turn, openFixture } from "../../../../support/journalFixture.js";
import { RewindService } from "../../../../../sidecar/kernel/undo/rewindService.js";

/** A message without its seq: the fork numbers its copies from 1. */
const body = ({ seq: _seq, ...m }: HistoryMessage) => m;

it("a fork's first run is shown the original's history before the forked message, and the message comes back as the draft (issue 29 item 2)", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ title: "plan the parser", model: "scripted:demo", systemPrompt: "be brief" });
  for (const text of ["first", "second", "third"]) turn(f, sessionId, text); // #1..#6
  const originalBefore = f.control.history(sessionId).messages;

  const forked = f.control.forkSession(sessionId, 5);
  assert.equal(forked.draft, "third", "the forked user message is handed back, not sent");
  assert.equal(forked.copied, 4);
  const forkId = forked.session.sessionId;
  assert.notEqual(forkId, sessionId);
  assert.deepEqual(forked.session.forkedFrom, { sessionId, title: "plan the parser", atSeq: 5 });
  assert.deepEqual(
    f.control.listSessions().find((s) => s.sessionId === forkId)?.forkedFrom,
    { sessionId, title: "plan the parser", atSeq: 5 },
    "History lists the fork with its origin",
  );
  assert.equal(f.control.profile(forkId).system_prompt, "be brief", "the fork keeps the original's model and system prompt");

  const run = turn(f, forkId, "third, differently");
  const seen = f.control.turnContext(run).history;
  assert.deepEqual(
    seen.map(body),
    originalBefore.filter((m) => m.seq < 5).map(body),
    "the fork's history equals the original's prefix before #5",
  );
  assert.deepEqual(
    seen.map((m) => m.seq),
    [1, 2, 3, 4],
  );
  assert.deepEqual(f.control.history(sessionId).messages, originalBefore, "the original is left as it was");
  f.close();
});

it("a fork leaves out what a rewind took out of the original's view, and refuses a rewound message, a message that is not the person's, and a missing one", () => {
  const f = openFixture();
  const rewinds = new RewindService({ journal: f.journal, control: f.control, restorer: {} as never }); // the conversation writes no file
  const { sessionId } = f.control.createSession({ title: "t", model: "scripted:demo" });
  for (const text of ["first", "second"]) turn(f, sessionId, text); // #1..#4
  rewinds.rewind(sessionId, 3, "conversation");
  turn(f, sessionId, "again"); // #5, #6

  const forked = f.control.forkSession(sessionId, 5);
  const run = turn(f, forked.session.sessionId, "again, differently");
  assert.deepEqual(
    f.control.turnContext(run).history.map((m) => (m.role === "user" || m.role === "assistant" ? m.text : m.role)),
    ["first", "answer to first"],
    "the rewound turn stays out of the fork, as it is out of the original's view",
  );

  const refused = (atSeq: number, code: unknown, words: RegExp) =>
    assert.throws(
      () => f.control.forkSession(sessionId, atSeq),
      (e: { code?: unknown; message: string }) => e.code === code && words.test(e.message),
    );
  refused(3, ErrorCode.Conflict, /rewound.*undo that rewind first/);
  refused(2, ErrorCode.InvalidParams, /an assistant message; a fork starts at a user message/);
  refused(99, ErrorCode.NotFound, /no message #99.*hearth show/);
  assert.equal(f.control.listSessions().length, 2, "a refused fork makes no session");
  f.close();
});

it("a task forked at a chat's user message is a leaf whose first run is shown the chat's history before it, then its instruction; the chat is left as it was (issue 29 item 2)", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ title: "plan the parser", model: "scripted:demo", systemPrompt: "be brief" });
  for (const text of ["first", "second", "third"]) turn(f, sessionId, text); // #1..#6
  const originalBefore = f.control.history(sessionId).messages;

  const started = f.control.createTask(
    { parentSessionId: null, title: "third, in the background", prompt: "third", model: "scripted:demo", forkOf: { sessionId, atSeq: 5 } },
    { clientId: "test", requestId: "1" },
  );
  const task = f.control.task(started.taskId);
  assert.equal(task.state, "queued");
  assert.notEqual(task.sessionId, sessionId);
  assert.equal(f.control.profile(task.sessionId).execution_role, "leaf", "a forked task is a leaf like any task");
  assert.equal(f.control.profile(task.sessionId).system_prompt, "be brief", "it keeps the chat's system prompt");
  const seen = f.control.turnContext(started.turnId);
  assert.deepEqual(seen.history.map(body), originalBefore.filter((m) => m.seq < 5).map(body), "its history is the chat's before #5");
  assert.equal(seen.userMessage, "third");
  assert.deepEqual(f.control.history(task.sessionId).session.forkedFrom, { sessionId, title: "plan the parser", atSeq: 5 });
  assert.deepEqual(f.control.history(sessionId).messages, originalBefore, "the chat is left as it was");

  assert.throws(
    () =>
      f.control.createTask(
        { parentSessionId: null, title: "t", prompt: "x", model: "scripted:demo", forkOf: { sessionId, atSeq: 4 } },
        { clientId: "test", requestId: "2" },
      ),
    (e: { code?: unknown; message: string }) => e.code === ErrorCode.InvalidParams && /a fork starts at a user message/.test(e.message),
  );
  assert.equal(f.control.tasks(100).length, 1, "a refused fork point makes no task");
  const sessions = f.journal.db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
  assert.equal(sessions.n, 2, "nor a session (the chat and the first task's)");
  f.close();
});

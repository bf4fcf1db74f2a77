// Rewind of a session to one of its user messages, through a real kernel process over a real journal
// and workspace (issue 29 item 1): the conversation only, the files only and both, each previewed and
// undone again. The scripted model's rounds are picked by the assistant messages it is shown, so a
// rewound session's next turn replays the round of the turn it replaces, and `expectUsers` fails the
// turn unless the model is shown exactly the user messages before the rewind point and the new one.
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { ErrorCode } from "../../../shared/errors.js";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import type { TestKernel } from "../../support/kernelProcess.js";
import { edit, kernelWith as startWith, write, type Round } from "../../support/writingKernel.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});
const kernelWith = (rounds: Round[], files: Record<string, string | Buffer> = {}) => startWith(kernels, rounds, files);

/** The seq of the user message that says `text`. */
async function userSeq(k: TestKernel, sessionId: string, text: string): Promise<number> {
  const { messages } = await k.client.request("session/history", { sessionId });
  const m = messages.find((x) => x.role === "user" && x.text === text);
  assert.ok(m, `no user message ${JSON.stringify(text)}`);
  return m.seq;
}

const refusedWith = (code: number, words: RegExp) => (e: unknown) =>
  e instanceof KernelRequestError && e.code === code && words.test(e.message);

it("rewinding the conversation shows the next turn exactly the history before the rewind point; its undo brings the turns back (issue 29 item 1)", async () => {
  const { k, sessionId, turn } = await kernelWith([
    { text: ["one"], expectUsers: ["first"] },
    // Played by the second turn, and again by the turn after the rewind: the model is shown the first
    // message and the new one, never the rewound "second" (that would be ["first","second","second"]).
    { text: ["two"], expectUsers: ["first", "second"] },
    // Never played: after the undo three assistant messages are in view (the rewound turn's and its
    // resend's), so the next turn plays the fourth round; a third in view would fail here.
    { error: "round 3 played: the view after the undo lost a turn" },
    // After the undo the rewound turn is back in view, before the turn made after the rewind.
    { text: ["four"], expectUsers: ["first", "second", "second", "fourth"] },
  ]);
  await turn("first");
  await turn("second");
  const at = await userSeq(k, sessionId, "second");

  const preview = await k.client.request("session/rewindPreview", { sessionId, toSeq: at });
  assert.deepEqual(preview.conversation, { fromSeq: at, throughSeq: at + 1, messages: 2, turns: 1 });
  assert.deepEqual(preview.files, []);

  const rewound = await k.client.request("session/rewind", { sessionId, toSeq: at, scope: "conversation" });
  assert.deepEqual([rewound.scope, rewound.fromSeq, rewound.throughSeq, rewound.undoneAt], ["conversation", at, at + 1, null]);
  const history = await k.client.request("session/history", { sessionId });
  assert.deepEqual(
    history.messages.map((m) => m.seq),
    [1, 2, 3, 4],
    "the journal keeps the rewound messages; clients fold them",
  );
  assert.deepEqual(
    history.rewinds?.map((r) => r.rewindId),
    [rewound.rewindId],
  );

  await turn("second"); // fails unless shown exactly ["first", "second"] (round 2)
  await assert.rejects(
    k.client.request("session/rewind", { sessionId, toSeq: at + 1, scope: "conversation" }),
    refusedWith(ErrorCode.InvalidParams, /is an assistant message; a rewind goes back to a user message/),
  );
  await assert.rejects(
    k.client.request("session/rewind", { sessionId, toSeq: at, scope: "both" }),
    refusedWith(ErrorCode.Conflict, /is rewound already .*undo that rewind first/),
  );
  // The files alone may still go back from a message out of view; these turns wrote none.
  await assert.rejects(
    k.client.request("session/rewind", { sessionId, toSeq: at, scope: "files" }),
    refusedWith(ErrorCode.NotFound, /wrote no files with write_file or edit_file, so there are no files to rewind/),
  );

  const undone = await k.client.request("session/undoRewind", { rewindId: rewound.rewindId });
  assert.deepEqual(undone.files, []);
  await assert.rejects(
    k.client.request("session/undoRewind", { rewindId: rewound.rewindId }),
    refusedWith(ErrorCode.Conflict, /was already undone/),
  );
  await turn("fourth"); // fails unless the rewound turn is in view again (round 3)

  await k.stop();
  const db = new Database(k.journalPath, { readonly: true });
  const types = db
    .prepare(`SELECT type FROM events WHERE session_id = ? AND type IN ('session.rewound', 'session.rewind_undone') ORDER BY event_seq`)
    .pluck()
    .all(sessionId);
  db.close();
  assert.deepEqual(types, ["session.rewound", "session.rewind_undone"], "the rewind and its undo are journaled as events");
});

it("rewinding the files puts back every file the later turns wrote and leaves the conversation; its undo restores what it replaced (issue 29 item 1)", async () => {
  const original = Buffer.from("alpha\r\nbeta\r\n"); // bytes, not lines, come back
  const { k, sessionId, turn, read, exists } = await kernelWith(
    [
      { toolCalls: [edit("a.txt", "beta", "BETA"), write("made/b.txt", "made by turn 1\n")] },
      { text: ["wrote"] },
      { toolCalls: [write("a.txt", "turn 2\n")] },
      { text: ["rewrote"] },
      { text: ["after"], expectUsers: ["write", "rewrite", "next"] },
    ],
    { "a.txt": original },
  );
  await turn("write");
  await turn("rewrite");
  const at = await userSeq(k, sessionId, "write");

  const preview = await k.client.request("session/rewindPreview", { sessionId, toSeq: at });
  assert.deepEqual(
    preview.files.map((f) => [f.path, f.outcome]),
    [
      ["a.txt", "restored"],
      ["made/b.txt", "removed"],
    ],
  );
  assert.equal(read("a.txt").toString(), "turn 2\n", "a preview changes nothing");

  const rewound = await k.client.request("session/rewind", { sessionId, toSeq: at, scope: "files" });
  assert.deepEqual(
    rewound.files.map((f) => [f.path, f.outcome]),
    [
      ["a.txt", "restored"],
      ["made/b.txt", "removed"],
    ],
  );
  assert.deepEqual(read("a.txt"), original, "the bytes before the first of the later turns, not an intermediate state");
  assert.equal(exists("made/b.txt"), false);
  await turn("next"); // the conversation is untouched: shown every message (round 5)

  const undone = await k.client.request("session/undoRewind", { rewindId: rewound.rewindId });
  assert.deepEqual(
    undone.files.map((f) => [f.path, f.outcome]),
    [
      ["a.txt", "restored"],
      ["made/b.txt", "restored"],
    ],
  );
  assert.equal(read("a.txt").toString(), "turn 2\n");
  assert.equal(read("made/b.txt").toString(), "made by turn 1\n", "a file the rewind removed is created again");
});

it("rewinding both refuses a file changed since alone, rewinds the rest and the conversation; undo leaves the refused file alone (issue 29 item 1)", async () => {
  const { k, sessionId, turn, read, exists } = await kernelWith(
    [
      { text: ["hello"] },
      // Played by "write two" and again by its resend after the rewind.
      { toolCalls: [write("x.txt", "turn x\n"), write("y.txt", "turn y\n")], expectUsers: ["plain", "write two"] },
      { text: ["done"] },
    ],
    { "x.txt": "old x\n" },
  );
  await turn("plain");
  await turn("write two");
  const at = await userSeq(k, sessionId, "write two");
  fs.writeFileSync(path.join(k.workspace, "y.txt"), "the person's edit\n");

  const preview = await k.client.request("session/rewindPreview", { sessionId, toSeq: at });
  assert.deepEqual(
    preview.files.map((f) => [f.path, f.outcome]),
    [
      ["x.txt", "restored"],
      ["y.txt", "refused"],
    ],
  );
  const rewound = await k.client.request("session/rewind", { sessionId, toSeq: at, scope: "both" });
  assert.deepEqual(
    rewound.files.map((f) => [f.path, f.outcome]),
    [
      ["x.txt", "restored"],
      ["y.txt", "refused"],
    ],
  );
  assert.match(rewound.files[1]!.message, /^refused: `y\.txt` changed since these turns wrote it; it was left as it is/);
  assert.equal(read("x.txt").toString(), "old x\n");
  assert.equal(read("y.txt").toString(), "the person's edit\n", "a refused file is untouched");

  await turn("write two"); // the resend: shown ["plain", "write two"] only, and writes again
  assert.equal(read("x.txt").toString(), "turn x\n");

  // The undo finds x.txt rewritten by the resend: refused, not overwritten; y.txt was never changed by the rewind.
  const undone = await k.client.request("session/undoRewind", { rewindId: rewound.rewindId });
  assert.deepEqual(
    undone.files.map((f) => [f.path, f.outcome]),
    [
      ["x.txt", "refused"],
      ["y.txt", "unchanged"],
    ],
  );
  assert.match(undone.files[0]!.message, /changed since the rewind put it back/);
  assert.equal(read("x.txt").toString(), "turn x\n");
  assert.equal(exists("y.txt"), true);
});

it("rewinding both, undone at once, puts the files and the conversation back as they were (issue 29 item 1)", async () => {
  const { k, sessionId, turn, read, exists } = await kernelWith(
    [
      { toolCalls: [write("p.txt", "turn p\n"), write("q.txt", "turn q\n")] },
      { text: ["done"] },
      { text: ["again"], expectUsers: ["write both", "next"] },
    ],
    { "p.txt": "old p\n" },
  );
  await turn("write both");
  const at = await userSeq(k, sessionId, "write both");
  const rewound = await k.client.request("session/rewind", { sessionId, toSeq: at, scope: "both" });
  assert.deepEqual(
    rewound.files.map((f) => f.outcome),
    ["restored", "removed"],
  );
  assert.equal(read("p.txt").toString(), "old p\n");
  assert.equal(exists("q.txt"), false);

  const undone = await k.client.request("session/undoRewind", { rewindId: rewound.rewindId });
  assert.deepEqual(
    undone.files.map((f) => f.outcome),
    ["restored", "restored"],
  );
  assert.equal(read("p.txt").toString(), "turn p\n");
  assert.equal(read("q.txt").toString(), "turn q\n");
  await turn("next"); // fails unless the undone turn is in view again
  const history = await k.client.request("session/history", { sessionId });
  assert.ok(history.rewinds?.[0]?.undoneAt, "the rewind is listed as undone");
});

it("a rewind is refused while a turn of the session runs, and for a message the session does not have (issue 29 item 1)", async () => {
  const { k, sessionId, driver, turn } = await kernelWith([{ text: ["quick"] }, { text: ["slow ", "answer"], delayMs: 1500 }]);
  await turn("first");
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "second" });
  await assert.rejects(
    k.client.request("session/rewind", { sessionId, toSeq: 1, scope: "conversation" }),
    refusedWith(ErrorCode.Conflict, /has an active run .*rewind it once the run has finished/),
  );
  assert.equal((await driver.completion(turnId)).status, "completed");
  await assert.rejects(
    k.client.request("session/rewindPreview", { sessionId, toSeq: 99 }),
    refusedWith(ErrorCode.NotFound, /no message #99 in session/),
  );
});

it("erasing the chat erases the bytes its rewinds kept; the undo of such a rewind then refuses, saying why (issue 29 item 1, issue 15)", async () => {
  const { k, sessionId, turn, read } = await kernelWith([{ toolCalls: [write("s.txt", "secret by the turn\n")] }, { text: ["done"] }], {
    "s.txt": "old\n",
  });
  await turn("write s.txt");
  const rewound = await k.client.request("session/rewind", { sessionId, toSeq: 1, scope: "files" });
  assert.equal(read("s.txt").toString(), "old\n");
  await k.client.request("session/erase", { sessionId });
  const undone = await k.client.request("session/undoRewind", { rewindId: rewound.rewindId });
  assert.deepEqual(
    undone.files.map((f) => f.outcome),
    ["refused"],
  );
  assert.match(undone.files[0]!.message, /were erased with the chat/);
  assert.equal(read("s.txt").toString(), "old\n");
  await k.stop();
  const db = new Database(k.journalPath, { readonly: true });
  const kept = db.prepare(`SELECT COUNT(*) FROM rewind_files WHERE replaced_content IS NOT NULL`).pluck().get();
  db.close();
  assert.equal(kept, 0, "no byte of the person's file is left in the journal");
});

it("the conversation rewound first, the files can follow from the same message, each its own undoable rewind (issue 29 item 1)", async () => {
  const { k, sessionId, turn, read } = await kernelWith([{ toolCalls: [write("p.txt", "turn p\n")] }, { text: ["done"] }], {
    "p.txt": "old p\n",
  });
  await turn("write p");
  const conversation = await k.client.request("session/rewind", { sessionId, toSeq: 1, scope: "conversation" });
  assert.equal(read("p.txt").toString(), "turn p\n", "the conversation alone leaves the files");
  const preview = await k.client.request("session/rewindPreview", { sessionId, toSeq: 1 });
  assert.deepEqual(
    preview.files.map((f) => f.outcome),
    ["restored"],
  );
  const files = await k.client.request("session/rewind", { sessionId, toSeq: 1, scope: "files" });
  assert.deepEqual(
    files.files.map((f) => f.outcome),
    ["restored"],
  );
  assert.equal(read("p.txt").toString(), "old p\n");
  assert.notEqual(files.rewindId, conversation.rewindId);
  await k.client.request("session/undoRewind", { rewindId: files.rewindId });
  assert.equal(read("p.txt").toString(), "turn p\n");
});

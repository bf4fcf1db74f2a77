// Undo of a turn's edits through a real kernel (issue 14 item 5): the scripted model writes, the
// test's TurnDriver approves, and turn/undoEdits puts every file back to its bytes before the turn,
// removes files the turn created, refuses a file changed since (only that one), refuses a second
// undo as already undone, and never follows a path out of the workspace.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { after, it } from "node:test";
import { ErrorCode } from "../../../shared/errors.js";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import { tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { edit, kernelWith as startWith, write, type Round } from "../../support/writingKernel.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});
const kernelWith = (rounds: Round[], files: Record<string, string | Buffer>) => startWith(kernels, rounds, files);

it("undo puts a modified file back to its exact bytes before the turn and removes a file it created (issue 14 item 5)", async () => {
  const before = Buffer.from("alpha\r\nbeta\r\ngamma"); // CRLF, no final newline: bytes, not lines, come back
  const { k, sessionId, turn, read } = await kernelWith(
    [
      { toolCalls: [edit("app.txt", "beta", "BETA"), write("app.txt", "rewritten\n"), write("new/created.txt", "made by the turn\n")] },
      { text: ["Done."] },
    ],
    { "app.txt": before },
  );
  const turnId = await turn("change app.txt and create new/created.txt");
  assert.equal(read("app.txt").toString(), "rewritten\n");

  const listed = await k.client.request("turn/edits", { sessionId });
  assert.deepEqual(
    listed.turns.map((t) => [t.turnId, t.callIds.length, t.files]),
    [
      [
        turnId,
        3,
        [
          { path: "app.txt", change: "modified", undone: false, notUndoable: null },
          { path: "new/created.txt", change: "created", undone: false, notUndoable: null },
        ],
      ],
    ],
  );

  const undo = await k.client.request("turn/undoEdits", { turnId });
  assert.deepEqual(
    undo.files.map((f) => [f.path, f.outcome]),
    [
      ["app.txt", "restored"],
      ["new/created.txt", "removed"],
    ],
  );
  assert.deepEqual(read("app.txt"), before, "the bytes before the turn's first write, not its intermediate edit");
  assert.equal(fs.existsSync(path.join(k.workspace, "new/created.txt")), false);
  assert.deepEqual(
    (await k.client.request("turn/edits", { sessionId })).turns[0]!.files.map((f) => f.undone),
    [true, true],
  );

  await k.stop();
  const db = new Database(k.journalPath, { readonly: true });
  const events = db.prepare(`SELECT payload_json FROM events WHERE run_id = ? AND type = 'turn.edits_undone'`).all(turnId) as {
    payload_json: string;
  }[];
  db.close();
  assert.equal(events.length, 1, "the undo is journaled as its own event");
  assert.deepEqual(
    (JSON.parse(events[0]!.payload_json) as { files: { outcome: string }[] }).files.map((f) => f.outcome),
    ["restored", "removed"],
  );
});

it("a file changed since the turn is refused alone, the rest undo, and a second undo refuses as already undone (issue 14 item 5)", async () => {
  const { k, turn, read } = await kernelWith(
    [{ toolCalls: [write("a.txt", "turn a\n"), write("b.txt", "turn b\n"), write("c.txt", "turn c\n")] }, { text: ["Done."] }],
    { "a.txt": "old a\n", "b.txt": "old b\n" },
  );
  const turnId = await turn("write three files");
  fs.writeFileSync(path.join(k.workspace, "b.txt"), "the person's edit\n");

  const first = await k.client.request("turn/undoEdits", { turnId });
  assert.deepEqual(
    first.files.map((f) => [f.path, f.outcome]),
    [
      ["a.txt", "restored"],
      ["b.txt", "refused"],
      ["c.txt", "removed"],
    ],
  );
  assert.match(first.files[1]!.message, /^refused: `b\.txt` changed since the turn wrote it; it was left as it is/);
  assert.equal(read("a.txt").toString(), "old a\n");
  assert.equal(read("b.txt").toString(), "the person's edit\n", "a refused file is untouched");
  assert.equal(fs.existsSync(path.join(k.workspace, "c.txt")), false);

  const second = await k.client.request("turn/undoEdits", { turnId });
  assert.deepEqual(
    second.files.map((f) => f.outcome),
    ["refused", "refused", "refused"],
  );
  assert.match(second.files[0]!.message, /^refused: `a\.txt` was already undone \(.+\); nothing was changed$/);
  assert.match(second.files[1]!.message, /changed since the turn wrote it/, "still refused for its own reason");
  assert.match(second.files[2]!.message, /already undone/);
  assert.equal(read("a.txt").toString(), "old a\n");
});

it("undo never follows a path out of the workspace: a folder swapped for a symlink is refused (issue 14 item 5, harness #9)", async () => {
  const { k, turn } = await kernelWith([{ toolCalls: [write("sub/x.txt", "turn x\n")] }, { text: ["Done."] }], { "sub/x.txt": "old x\n" });
  const turnId = await turn("write sub/x.txt");
  // The same bytes outside, behind a link where the folder was: a path-following undo would overwrite them.
  const outside = tempDir("outside");
  fs.writeFileSync(path.join(outside, "x.txt"), "turn x\n");
  fs.renameSync(path.join(k.workspace, "sub"), path.join(k.workspace, "sub-moved"));
  fs.symlinkSync(outside, path.join(k.workspace, "sub"));

  const undo = await k.client.request("turn/undoEdits", { turnId });
  assert.equal(undo.files[0]!.outcome, "refused");
  assert.match(undo.files[0]!.message, /symbolic link/);
  assert.equal(fs.readFileSync(path.join(outside, "x.txt"), "utf8"), "turn x\n", "nothing outside the workspace changed");
});

it("a file over the pre-image bound keeps only its hash: undo refuses it with a clear message and undoes the rest (issue 14 item 5)", async () => {
  const big = "x".repeat((1 << 20) + 10) + "\nEND\n";
  const { k, turn, read } = await kernelWith(
    [{ toolCalls: [edit("big.txt", "END", "FIN"), write("small.txt", "new\n")] }, { text: ["Done."] }],
    { "big.txt": big, "small.txt": "old\n" },
  );
  const turnId = await turn("edit big.txt");
  const undo = await k.client.request("turn/undoEdits", { turnId });
  assert.deepEqual(
    undo.files.map((f) => [f.path, f.outcome]),
    [
      ["big.txt", "refused"],
      ["small.txt", "restored"],
    ],
  );
  assert.match(undo.files[0]!.message, /over 1 MiB before the turn, so only its hash was kept/);
  assert.match(read("big.txt").toString(), /FIN\n$/, "left as the turn wrote it");
  assert.equal(read("small.txt").toString(), "old\n");
});

it("undo is refused for a turn that wrote no files (issue 14 item 5)", async () => {
  const { k, turn } = await kernelWith([{ text: ["Nothing to write."] }], {});
  const turnId = await turn("say hi");
  await assert.rejects(
    k.client.request("turn/undoEdits", { turnId }),
    (e: unknown) =>
      e instanceof KernelRequestError && e.code === ErrorCode.NotFound && /wrote no files with write_file or edit_file/.test(e.message),
  );
});

it("undo is refused while the turn still runs, and works once it ended (issue 14 item 5)", async () => {
  const { k, sessionId, driver, read } = await kernelWith(
    [{ toolCalls: [write("a.txt", "turn\n")] }, { text: ["Still ", "answering."], delayMs: 1500 }],
    { "a.txt": "before\n" },
  );
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "write a.txt slowly" });
  await driver.until(() => read("a.txt").toString() === "turn\n", "the write");
  await assert.rejects(
    k.client.request("turn/undoEdits", { turnId }),
    (e: unknown) =>
      e instanceof KernelRequestError &&
      e.code === ErrorCode.Conflict &&
      /is still running; its edits can be undone once it ends/.test(e.message),
  );
  assert.equal(read("a.txt").toString(), "turn\n");
  assert.equal((await driver.completion(turnId)).status, "completed");
  assert.deepEqual(
    (await k.client.request("turn/undoEdits", { turnId })).files.map((f) => f.outcome),
    ["restored"],
  );
  assert.equal(read("a.txt").toString(), "before\n");
});

// `hearth rewind` as a person meets it in a terminal (issue 29 item 1): real `hearth` processes and a
// real detached kernel over a real journal. Without --scope it previews and changes nothing; without
// a terminal it refuses to act unasked; --scope both --yes rewinds the files and the conversation;
// `hearth show` lists the rewind; --undo puts it all back.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { scriptedCliWorkspace, stopKernel } from "../../support/cliProcess.js";

const { workspace, journalPath, script, hearth } = scriptedCliWorkspace("rewind-cli", [
  { text: ["Hello."] },
  { toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: "by the turn\n" } }] },
  { text: ["Wrote it."] },
]);
fs.writeFileSync(path.join(workspace, "notes.txt"), "mine\n");
const notes = () => fs.readFileSync(path.join(workspace, "notes.txt"), "utf8");

after(() => stopKernel(journalPath));

it("hearth rewind previews, refuses to act unasked without a terminal, rewinds both with --yes and undoes it with --undo (issue 29 item 1)", async () => {
  const first = await hearth("exec", "--model", `scripted:${script}`, "--json", "hello");
  assert.equal(first.code, 0, first.stderr);
  const sessionId = (JSON.parse(first.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
  const second = await hearth("exec", "--session", sessionId, "--approve", "all", "write the notes");
  assert.equal(second.code, 0, second.stderr);
  assert.equal(notes(), "by the turn\n");

  const preview = await hearth("rewind", sessionId, "--to", "3");
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(preview.stdout, /conversation: #3 to #6 \(4 messages, 1 turn\) would leave the model's view/);
  assert.match(preview.stdout, /restored\s+notes\.txt: would put `notes\.txt` back to its 5 bytes before these turns/);
  assert.equal(notes(), "by the turn\n", "a preview changes nothing");

  const unasked = await hearth("rewind", sessionId, "--to", "3", "--scope", "both");
  assert.equal(unasked.code, 2, unasked.stderr);
  assert.match(unasked.stderr, /pass --yes to rewind when there is no terminal to ask on/);
  assert.equal(notes(), "by the turn\n");

  const done = await hearth("rewind", sessionId, "--to", "3", "--scope", "both", "--yes");
  assert.equal(done.code, 0, done.stderr);
  assert.equal(notes(), "mine\n");
  const rewindId = /as rewind (\S+); undo it with `hearth rewind --undo \1`/.exec(done.stdout)?.[1];
  assert.ok(rewindId, done.stdout);

  const shown = await hearth("show", sessionId);
  assert.match(shown.stdout, new RegExp(`rewind ${rewindId} both #3\\.\\.#6 at `));

  const undone = await hearth("rewind", "--undo", rewindId);
  assert.equal(undone.code, 0, undone.stderr);
  assert.match(undone.stdout, /restored\s+notes\.txt: put `notes\.txt` back to the 12 bytes the rewind replaced/);
  assert.equal(notes(), "by the turn\n");
});

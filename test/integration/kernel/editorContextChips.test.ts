// Context from the editor (issue 29 item 3) through a real kernel: the Problems list, the terminal's
// last command and the working tree's changes arrive as the text the extension collected and reach the
// model exactly as sent; a folder is listed by the kernel's anchored list_dir, never by the client. The
// journal records each attachment's kind, place, size and hash; a chip the kernel cannot honour is
// refused before any run, saying what, why and what to do.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import { splitMessage } from "../../../shared/attachmentText.js";
import type { Attachment } from "../../../shared/protocol/attachments.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

function scripted(rounds: unknown[]): string {
  const file = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

async function kernel(): Promise<TestKernel> {
  const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  return k;
}

const PROBLEMS =
  "1 problem in the workspace (1 error)\nsrc/broken.ts:1:7 error ts(2322): Type 'string' is not assignable to type 'number'.\n";
const TERMINAL = "$ npm test\n(exit code 1, in /ws)\nFAIL a.test.ts\n";
const CHANGES = "Changes in the working tree of .:\nNot staged (git diff):\ndiff --git a/a.ts b/a.ts\n-old\n+new\n";

it("problems, terminal and changes reach the model exactly as sent, a folder as the kernel listed it; each is journaled (issue 29 item 3)", async () => {
  const k = await kernel();
  fs.mkdirSync(path.join(k.workspace, "src", "deep"), { recursive: true });
  fs.writeFileSync(path.join(k.workspace, "src", "broken.ts"), "const n: number = 'x';\n");
  fs.writeFileSync(path.join(k.workspace, "src", "deep", "inner.ts"), "\n");
  fs.writeFileSync(path.join(k.workspace, "src", "deep", "too-deep-to-list.ts"), "\n");
  fs.mkdirSync(path.join(k.workspace, "src", "deep", "deeper"));
  fs.writeFileSync(path.join(k.workspace, "src", "deep", "deeper", "not-listed.ts"), "\n");
  const listing = "broken.ts\ndeep/\n  deeper/\n  inner.ts\n  too-deep-to-list.ts";
  const attachments: Attachment[] = [
    { kind: "problems", path: "workspace", content: PROBLEMS },
    { kind: "terminal", path: "bash", content: TERMINAL },
    { kind: "changes", path: ".", content: CHANGES },
    { kind: "folder", path: "src" },
  ];
  const shown =
    `Why does it fail?\n\n<attached problems="workspace">\n${PROBLEMS}</attached>` +
    `\n\n<attached terminal="bash">\n${TERMINAL}</attached>` +
    `\n\n<attached changes=".">\n${CHANGES}</attached>` +
    `\n\n<attached folder="src">\n${listing}\n</attached>`;
  const model = scripted([{ text: ["Because."], expectUsers: [shown] }]);
  const { sessionId } = await k.client.request("session/create", { title: "editor", model });
  const driver = new TurnDriver(k.client);
  const { turnId, attachedBytes } = await k.client.request("turn/start", { sessionId, message: "Why does it fail?", attachments });
  assert.deepEqual(
    attachedBytes,
    [PROBLEMS, TERMINAL, CHANGES, listing].map((t) => Buffer.byteLength(t)),
    "the chips' sizes",
  );
  const done = await driver.completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));

  const user = (await k.client.request("session/history", { sessionId })).messages.find((m) => m.role === "user")!;
  assert.deepEqual(
    splitMessage(user.text),
    { typed: "Why does it fail?", attachments },
    "the view gets one chip per attachment, with its text",
  );

  const sha = (text: string) => createHash("sha256").update(text).digest("hex");
  const db = new Database(k.journalPath, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT kind, path, server, bytes, sha256 FROM message_attachments WHERE run_id = ? ORDER BY ordinal`)
      .all(turnId);
    assert.deepEqual(rows, [
      { kind: "problems", path: "workspace", server: null, bytes: Buffer.byteLength(PROBLEMS), sha256: sha(PROBLEMS) },
      { kind: "terminal", path: "bash", server: null, bytes: Buffer.byteLength(TERMINAL), sha256: sha(TERMINAL) },
      { kind: "changes", path: ".", server: null, bytes: Buffer.byteLength(CHANGES), sha256: sha(CHANGES) },
      { kind: "folder", path: "src", server: null, bytes: Buffer.byteLength(listing), sha256: sha(listing) },
    ]);
  } finally {
    db.close();
  }
});

it("a chip the kernel cannot honour is refused before any run, with what to do (issue 29 item 3)", async () => {
  const k = await kernel();
  const { sessionId } = await k.client.request("session/create", { title: "refusals", model: scripted([{ text: ["never"] }]) });
  const refused = async (attachment: Attachment, pattern: RegExp) =>
    assert.rejects(k.client.request("turn/start", { sessionId, message: "look", attachments: [attachment] }), pattern);
  await refused(
    { kind: "problems", path: "workspace" },
    /refused: the attached problems: workspace carries no text; .*attach it again with @/,
  );
  await refused(
    { kind: "folder", path: "src", content: "a listing I made up" },
    /refused: the attached folder: src carries text, but the kernel reads a folder itself/,
  );
  fs.mkdirSync(path.join(k.workspace, "..", "outside"), { recursive: true });
  await refused(
    { kind: "folder", path: "../outside" },
    /refused: the attached folder: \.\.\/outside could not be read .*remove its chip or fix the folder/,
  );
  await refused({ kind: "folder", path: "missing" }, /refused: the attached folder: missing could not be read/);
  assert.equal((await k.client.request("session/history", { sessionId })).runs.length, 0, "a refused chip admits no run");
});

// Context in a message and Erase (issue 15) through a real kernel and the real CLI: attached files and
// selections are read by the kernel's anchored read_file into the message the model is shown, and
// the journal records what was attached; a path outside the workspace is refused before any run.
// Erase is refused while a turn of the chat runs, then removes its messages from the journal for
// good; `hearth erase` does the same, asking first.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import { splitMessage } from "../../../shared/attachmentText.js";
import { DIST, startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
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

it("attached context: the model is shown the file and the selected lines the kernel read; the journal records each (issue 15 item 5)", async () => {
  const k = await kernel();
  fs.writeFileSync(path.join(k.workspace, "a.ts"), "line 1\nline 2\nline 3\nline 4\n");
  fs.writeFileSync(path.join(k.workspace, "notes.md"), "# notes\n");
  const shown =
    'Explain this\n\n<attached file="notes.md">\n# notes\n</attached>\n\n<attached selection="a.ts" lines="2-3">\nline 2\nline 3\n</attached>';
  // expectUsers: the round fails unless the model is shown exactly this user message.
  const model = scripted([{ text: ["Explained."], expectUsers: [shown] }]);
  const { sessionId } = await k.client.request("session/create", { title: "ctx", model });
  const driver = new TurnDriver(k.client);
  const attachments = [
    { kind: "file" as const, path: "notes.md" },
    { kind: "selection" as const, path: "a.ts", startLine: 2, endLine: 3 },
  ];
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "Explain this", attachments });
  const done = await driver.completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  const user = (await k.client.request("session/history", { sessionId })).messages.find((m) => m.role === "user")!;
  assert.deepEqual(
    splitMessage(user.text),
    { typed: "Explain this", attachments },
    "the view gets the typed text and one chip per attachment",
  );

  const db = new Database(k.journalPath, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT kind, path, start_line, end_line, bytes FROM message_attachments WHERE run_id = ? ORDER BY ordinal`)
      .all(turnId);
    assert.deepEqual(rows, [
      { kind: "file", path: "notes.md", start_line: null, end_line: null, bytes: 8 },
      { kind: "selection", path: "a.ts", start_line: 2, end_line: 3, bytes: 13 },
    ]);
  } finally {
    db.close();
  }

  fs.writeFileSync(path.join(k.workspace, "..", "secret.txt"), "no\n");
  await assert.rejects(
    k.client.request("turn/start", { sessionId, message: "and this", attachments: [{ kind: "file", path: "../secret.txt" }] }),
    /refused: the attached \.\.\/secret\.txt could not be read .*remove its chip/,
  );
  assert.equal((await k.client.request("session/history", { sessionId })).runs.length, 1, "a refused attachment admits no run");
});

it("erase is refused while the chat's turn runs, then removes its messages for good; the CLI asks first (issue 15 item 2)", async () => {
  const k = await kernel();
  const model = scripted([{ text: ["slow ", "answer ", "here."], delayMs: 700 }, { text: ["again"] }]);
  const { sessionId } = await k.client.request("session/create", { title: "to erase", model });
  const driver = new TurnDriver(k.client);
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "private words" });
  await assert.rejects(k.client.request("session/erase", { sessionId }), /refused: a turn of chat .* is running.*press Stop/);
  await driver.completion(turnId);

  assert.deepEqual(await k.client.request("session/erase", { sessionId }), { sessionId, erased: true, messages: 2 });
  const history = await k.client.request("session/history", { sessionId });
  assert.deepEqual(history.messages, [], "no message of the chat is left");
  assert.equal(history.session.title, "");
  assert.ok(!(await k.client.request("session/list", {})).sessions.some((s) => s.sessionId === sessionId), "an erased chat is not listed");
  await assert.rejects(k.client.request("turn/start", { sessionId, message: "more" }), /was erased/);
  const db = new Database(k.journalPath, { readonly: true });
  try {
    const text = (db.prepare(`SELECT group_concat(body_json) AS t FROM conversation_journal`).get() as { t: string | null }).t ?? "";
    assert.doesNotMatch(text, /private words|slow answer/, "the words are gone from the journal");
  } finally {
    db.close();
  }

  // The CLI: without a terminal it will not erase unconfirmed; --yes erases.
  const other = (await k.client.request("session/create", { title: "cli", model })).sessionId;
  const cli = (args: string[]) =>
    spawnSync(process.execPath, [path.join(DIST, "cli.mjs"), "erase", "--workspace", k.workspace, "--db", k.journalPath, ...args], {
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
  const unconfirmed = cli([other]);
  assert.equal(unconfirmed.status, 2, unconfirmed.stderr);
  assert.match(unconfirmed.stderr, /cannot be undone: pass --yes/);
  const confirmed = cli(["--yes", other]);
  assert.equal(confirmed.status, 0, confirmed.stderr);
  assert.match(confirmed.stdout, /erased: 0 messages removed/);
});

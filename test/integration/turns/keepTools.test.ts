// Issue 25 item 2: a chat whose tools changed (the kernel restarted with another HEARTH_TOOLS) goes on
// with the tools it began with when the person asks for it (session/keepTools): the request is
// journaled, the next turn is offered exactly the old tools, new sessions the new ones. Restricted
// Mode never gets a writing tool back this way, and a session whose folder changed keeps nothing.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const OLD_TOOLS = ["list_dir", "read_file", "write_file"];

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

function setup() {
  const root = tempDir("keep-tools");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const journalPath = path.join(root, "journal.sqlite");
  const script = (name: string, rounds: unknown[]) => {
    const file = path.join(root, name);
    fs.writeFileSync(file, JSON.stringify({ rounds }));
    return `scripted:${file}`;
  };
  const start = async (tools: string) => {
    const k = startTestKernel({ workspace, journalPath, env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_TOOLS: tools } });
    kernels.push(k);
    await k.client.initialize("test", "0");
    return { k, driver: new TurnDriver(k.client) };
  };
  const turn = async ({ k, driver }: Awaited<ReturnType<typeof start>>, sessionId: string, message: string) => {
    const { turnId } = await k.client.request("turn/start", { sessionId, message });
    return driver.completion(turnId);
  };
  const events = (type: string) => {
    const db = new Database(journalPath, { readonly: true });
    try {
      return (db.prepare(`SELECT payload_json FROM events WHERE type = ? ORDER BY rowid`).all(type) as { payload_json: string }[]).map(
        (r) => JSON.parse(r.payload_json) as Record<string, unknown>,
      );
    } finally {
      db.close();
    }
  };
  return { workspace, script, start, turn, events };
}

it("a chat whose tools changed goes on with its earlier tools when asked, journaled; new chats get the new tools (issue 25 item 2, harness #19)", async () => {
  const s = setup();
  const model = s.script("old.json", [
    { expectTools: OLD_TOOLS, text: ["Made under the old tools."] },
    { expectTools: OLD_TOOLS, text: ["Still the old tools."] },
  ]);
  const a = await s.start(OLD_TOOLS.join(","));
  const { sessionId } = await a.k.client.request("session/create", { model });
  assert.equal((await s.turn(a, sessionId, "first")).status, "completed");
  await a.k.stop();

  const b = await s.start("read_file");
  const drifted = await s.turn(b, sessionId, "second");
  assert.equal(drifted.status, "failed");
  assert.match(drifted.error?.message ?? "", /authority drifted \(tools changed/);

  // Restricted Mode: write_file writes, and an untrusted folder never gets a writing tool back this way.
  await assert.rejects(b.k.client.request("session/keepTools", { sessionId, readOnly: true }), (e: Error) =>
    /refused to keep the session's earlier tools: `write_file` changes files or reaches beyond them, and the folder is not trusted \(Restricted Mode\).*trust the folder and ask again, or start a new session/.test(
      e.message,
    ),
  );
  assert.deepEqual(s.events("session.tools_kept"), [], "a refused request journals nothing");

  const kept = await b.k.client.request("session/keepTools", { sessionId });
  assert.deepEqual(kept.tools, OLD_TOOLS);
  assert.deepEqual(s.events("session.tools_kept"), [{ tools: OLD_TOOLS, readOnly: false }]);

  const resumed = await s.turn(b, sessionId, "third");
  assert.equal(resumed.status, "completed", JSON.stringify(resumed));
  const offered = s.events("run.tools_offered").map((e) => [...(e.tools as string[])].sort());
  assert.deepEqual(offered.at(-1), OLD_TOOLS, "the kept chat's turn is offered exactly its earlier tools");

  const fresh = await b.k.client.request("session/create", {
    model: s.script("new.json", [{ expectTools: ["read_file"], text: ["New tools."] }]),
  });
  assert.equal((await s.turn(b, fresh.sessionId, "hello")).status, "completed", "a new chat uses the tools set now");
});

it("a session whose folder changed keeps nothing: the request says the folder changed and to start a new session", async () => {
  const s = setup();
  const model = s.script("old.json", [{ text: ["Made here."] }]);
  const a = await s.start("read_file,list_dir");
  const { sessionId } = await a.k.client.request("session/create", { model });
  assert.equal((await s.turn(a, sessionId, "first")).status, "completed");
  await a.k.stop();
  // The same path, another folder: the workspace's identity (its inode) is part of the authority.
  fs.renameSync(s.workspace, `${s.workspace}-before`);
  fs.mkdirSync(s.workspace);
  const b = await s.start("read_file");
  await assert.rejects(b.k.client.request("session/keepTools", { sessionId }), (e: Error) =>
    /refused to keep the session's earlier tools: its workspace folder changed.*start a new session/.test(e.message),
  );
  assert.deepEqual(s.events("session.tools_kept"), []);
});

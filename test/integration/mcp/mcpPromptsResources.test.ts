// MCP prompts as slash commands and MCP resources as `@` attachments (issue 28, item 5), through a
// real kernel and the registry's server-everything started by it: prompts/list names the running
// server's prompts `/server:prompt`, prompts/expand runs one (prompts/get) into the message text, and
// an attached resource is read at admission into the message the model is shown and journaled as a
// file attachment is. A server that is not running offers neither; a binary part is refused.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import { splitMessage } from "../../../shared/attachmentText.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { EVERYTHING } from "../../support/mcpServers.js";
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
  const servers = [{ name: "everything", type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] }];
  const root = tempDir("mcp-ctx");
  // HOME in the temp folder: no Cline or Roo settings of this machine are imported into the test.
  const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_MCP_SERVERS: JSON.stringify(servers), HOME: root } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  return k;
}

/** A first turn builds its session, which starts the person's servers (listing starts none). */
async function firstTurn(k: TestKernel, rounds: unknown[] = [{ text: ["Hello."] }]): Promise<string> {
  const { sessionId } = await k.client.request("session/create", { title: "mcp", model: scripted(rounds) });
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "hi" });
  const done = await new TurnDriver(k.client).completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  return sessionId;
}

it("a running server's prompts are slash commands /server:prompt; expanding one sends its messages' text (issue 28 item 5)", async () => {
  const k = await kernel();
  const before = await k.client.request("prompts/list", {});
  assert.ok(!before.prompts.some((p) => p.origin === "mcp"), "a server not started offers no prompts: listing starts nothing");

  await firstTurn(k);
  const listed = (await k.client.request("prompts/list", {})).prompts.filter((p) => p.origin === "mcp");
  const names = listed.map((p) => p.name);
  assert.ok(names.includes("everything:simple-prompt"), names.join(", "));
  const args = listed.find((p) => p.name === "everything:args-prompt");
  assert.deepEqual(
    args?.inputs.map((i) => ({ name: i.name, optional: i.optional === true })),
    [
      { name: "city", optional: false },
      { name: "state", optional: true },
    ],
  );
  assert.equal((await k.client.request("prompts/list", { readOnly: true })).prompts.filter((p) => p.origin === "mcp").length, 0);

  const simple = await k.client.request("prompts/expand", { name: "everything:simple-prompt", args: "and more" });
  assert.deepEqual(simple, {
    text: "This is a simple prompt without arguments.\n\nand more",
    mode: null,
    source: 'MCP server "everything", prompt "simple-prompt"',
  });
  const city = await k.client.request("prompts/expand", { name: "everything:args-prompt", inputs: { city: "Oslo", state: "" } });
  assert.equal(city.text, "What's weather in Oslo?", "an empty optional argument is omitted");
  const both = await k.client.request("prompts/expand", { name: "everything:args-prompt", inputs: { city: "Austin", state: "TX" } });
  assert.equal(both.text, "What's weather in Austin, TX?");
  await assert.rejects(
    k.client.request("prompts/expand", { name: "everything:args-prompt", inputs: { city: "" } }),
    /refused \/everything:args-prompt: it needs the argument city/,
  );
  const embedded = await k.client.request("prompts/expand", {
    name: "everything:resource-prompt",
    inputs: { resourceType: "Text", resourceId: "1" },
  });
  assert.match(embedded.text, /Please analyze the following resource:\n\n\S/, "an embedded text resource is its text");
  await assert.rejects(
    k.client.request("prompts/expand", { name: "everything:resource-prompt", inputs: { resourceType: "Blob", resourceId: "1" } }),
    /embedded resource is binary .*only text/,
  );
  await assert.rejects(
    k.client.request("prompts/expand", { name: "everything:simple-prompt", readOnly: true }),
    /no MCP prompt \/everything:simple-prompt now: .*Restricted Mode/,
  );
});

it("an attached resource is read by the kernel into the message and journaled like a file (issue 28 item 5)", async () => {
  const k = await kernel();
  assert.deepEqual((await k.client.request("mcp/resources", {})).resources, [], "no server runs yet");
  const sessionId = await firstTurn(k, [{ text: ["Hello."] }, { text: ["Read it."] }]);
  const { resources } = await k.client.request("mcp/resources", {});
  const doc = resources.find((r) => r.server === "everything" && r.uri.startsWith("demo://resource/static/document/"));
  assert.ok(doc, JSON.stringify(resources.slice(0, 5)));
  assert.match((await k.client.request("mcp/resources", { readOnly: true })).notes.join(" "), /Restricted Mode/);

  const attachment = { kind: "resource" as const, path: doc.uri, server: "everything" };
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "Summarise this", attachments: [attachment] });
  const done = await new TurnDriver(k.client).completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  const user = (await k.client.request("session/history", { sessionId })).messages.filter((m) => m.role === "user").at(-1)!;
  const split = splitMessage(user.text);
  assert.deepEqual(split, { typed: "Summarise this", attachments: [attachment] }, "the transcript shows one chip for it");
  const body = user.text.slice(user.text.indexOf(">\n") + 2, -"\n</attached>".length);
  assert.ok(body.length > 0, "the resource's text is in the message");

  const db = new Database(k.journalPath, { readonly: true });
  try {
    const rows = db.prepare(`SELECT kind, path, server, bytes FROM message_attachments WHERE run_id = ?`).all(turnId);
    assert.deepEqual(rows, [{ kind: "resource", path: doc.uri, server: "everything", bytes: Buffer.byteLength(`${body}\n`) }]);
  } finally {
    db.close();
  }

  await assert.rejects(
    k.client.request("turn/start", {
      sessionId,
      message: "and this",
      attachments: [{ kind: "resource", path: "demo://resource/dynamic/blob/1", server: "everything" }],
    }),
    /refused: the attached resource everything: demo:\/\/resource\/dynamic\/blob\/1 cannot be attached: it is binary/,
  );
  await assert.rejects(
    k.client.request("turn/start", { sessionId, message: "and this", attachments: [attachment], readOnly: true }),
    /cannot be read: the folder is not trusted \(Restricted Mode\)/,
  );
});

// A web page attached to a message (`@url`, issue 29 item 3) through a real kernel and a real HTTP
// server on loopback: the turn's first call is web_fetch of the URL, which asks first (harness #11);
// approved, the model is shown the page as that call's result; denied, nothing is fetched and the
// model is shown the denial. The message keeps a url chip; the journal a url attachment row. With
// web_fetch off, or in Restricted Mode, the message is refused before any run, saying what to do.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, it } from "node:test";
import Database from "better-sqlite3";
import { splitMessage } from "../../../shared/attachmentText.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { type ApprovalAnswer, TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
let server: http.Server;
let base = "";
let hits = 0;

before(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><head><script>alert(1)</script></head><body><h1>Release notes</h1><p>Version 2 drops Node 18.</p></body></html>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const k of kernels) await k.stop();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function scripted(rounds: unknown[]): string {
  const file = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

async function kernel(webFetch: boolean): Promise<TestKernel> {
  const env: Record<string, string> = { HEARTH_ALLOW_SCRIPTED: "1" };
  // As the editor's hearth.tools.webFetch starts it: web_fetch among the tools, and its opt-in on.
  if (webFetch) Object.assign(env, { HEARTH_TOOLS: "read_file,web_fetch", HEARTH_WEB_FETCH: "1" });
  const k = startTestKernel({ env });
  kernels.push(k);
  await k.client.initialize("test", "0");
  return k;
}

/** Round 1 is the kernel's fetch; the model's first round is the script's second (one answer in history). */
function answering(expectToolOutputs: string[]): string {
  return scripted([{ text: ["never: the kernel proposes the fetch"] }, { text: ["Version 2 drops Node 18."], expectToolOutputs }]);
}

async function turn(k: TestKernel, model: string, answer: ApprovalAnswer) {
  const { sessionId } = await k.client.request("session/create", { title: "url", model });
  const driver = new TurnDriver(k.client, answer);
  const url = `${base}/notes`;
  const { turnId } = await k.client.request("turn/start", {
    sessionId,
    message: "What changed?",
    attachments: [{ kind: "url", path: url }],
  });
  const done = await driver.completion(turnId);
  return { sessionId, turnId, url, done, driver };
}

it("an approved @url is fetched by web_fetch as the turn's first call, and the model is shown the page as its result", async () => {
  const k = await kernel(true);
  const url = `${base}/notes`;
  const page = `HTTP 200 ${url}\n\nRELEASE NOTES\n\nVersion 2 drops Node 18.`;
  const before = hits;
  const t = await turn(k, answering([page]), () => ({ decision: "approve", reason: "approved by the test" }));
  assert.equal(t.done.status, "completed", JSON.stringify(t.done));
  assert.equal(hits - before, 1, "fetched once, after the approval");
  assert.equal(t.driver.approvals.length, 1, "web_fetch asked first (harness #11)");
  assert.equal(t.driver.approvals[0]!.call.name, "web_fetch");
  assert.deepEqual(t.driver.approvals[0]!.call.arguments, { url });

  const history = await k.client.request("session/history", { sessionId: t.sessionId });
  const [user, call, result, answer] = history.messages;
  assert.deepEqual(splitMessage(user!.role === "user" ? user!.text : "").attachments, [{ kind: "url", path: url }], "a url chip");
  assert.equal(call?.role === "assistant" && call.toolCalls[0]?.name, "web_fetch");
  assert.equal(result?.role === "tool" && result.output, page, "the page as text: no script, no markup");
  assert.equal(answer?.role === "assistant" && answer.text, "Version 2 drops Node 18.");
  assert.equal(history.runs[0]!.ledger[0]!.status, "succeeded", "the fetch is in the ledger like any call");
  const db = new Database(k.journalPath, { readonly: true });
  assert.deepEqual(db.prepare(`SELECT kind, path FROM message_attachments`).all(), [{ kind: "url", path: url }]);
  db.close();
});

it("a denied @url fetches nothing and the model is shown the denial", async () => {
  const k = await kernel(true);
  const before = hits;
  const t = await turn(k, answering(["denied: not this page"]), () => ({ decision: "deny", reason: "not this page" }));
  assert.equal(t.done.status, "completed", JSON.stringify(t.done));
  assert.equal(hits, before, "nothing was fetched");
});

it("with web_fetch off, or in Restricted Mode, an @url is refused before any run, saying what to do", async () => {
  const off = await kernel(false);
  const { sessionId } = await off.client.request("session/create", { title: "off", model: answering([]) });
  await assert.rejects(
    off.client.request("turn/start", { sessionId, message: "What changed?", attachments: [{ kind: "url", path: `${base}/x` }] }),
    /web_fetch, which is off: turn on the setting hearth\.tools\.webFetch/,
  );
  const on = await kernel(true);
  const trusted = await on.client.request("session/create", { title: "restricted", model: answering([]) });
  await assert.rejects(
    on.client.request("turn/start", {
      sessionId: trusted.sessionId,
      message: "What changed?",
      readOnly: true,
      attachments: [{ kind: "url", path: `${base}/x` }],
    }),
    /in Restricted Mode Hearth only reads this folder/,
  );
  await assert.rejects(
    on.client.request("turn/start", {
      sessionId: trusted.sessionId,
      message: "x",
      attachments: [{ kind: "url", path: "file:///etc/passwd" }],
    }),
    /is not an http\(s\) URL/,
  );
  for (const [k, id] of [
    [off, sessionId],
    [on, trusted.sessionId],
  ] as const)
    assert.deepEqual((await k.client.request("session/history", { sessionId: id })).runs, [], "no run was admitted");
});

// An API key for an OpenAI-compatible server, set the way a person does it (issue 10, item 5;
// done-when (d)): "Hearth: Set API Key…" stores it in VS Code's secret storage, the kernel restarts
// with it, and the next message reaches a local OpenAI-compatible test server with the key as its
// bearer token. The key appears in no setting, log or journal file.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { newScenario } from "./support/scenario.js";
import { runCommand, waitFor } from "./support/webview.js";
import { startWorkbench, openChatView, sendChat } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const KEY = `sk-hearth-e2e-${Math.random().toString(36).slice(2)}`;
const ANSWER = "Hello from the test server.";

/** A minimal OpenAI-compatible server: load-time probes get a call to the offered tool, chats a stream. */
function openAiServer(authorizations: string[]): http.Server {
  return http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      authorizations.push(req.headers.authorization ?? "");
      const body = JSON.parse(raw || "{}") as { stream?: boolean; tools?: { function: { name: string } }[] };
      if (body.stream !== true) {
        const tool = body.tools?.[0]?.function.name;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            choices: [
              {
                message: {
                  content: "OK",
                  tool_calls: tool ? [{ id: "c1", type: "function", function: { name: tool, arguments: "{}" } }] : [],
                },
              },
            ],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const word of ANSWER.split(/(?<= )/)) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: word } }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`);
      res.end();
    });
  });
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.lstatSync(f).isFile() && fs.readFileSync(f).includes(needle));
}

describe("an API key set through the command", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("apiKey", "hearth-e2e-key-");
  const hearthHome = path.join(scratch, "hearth");
  const authorizations: string[] = [];
  const server = openAiServer(authorizations);
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    await startWorkbench(started, {
      scratch,
      workspace,
      settings: { "hearth.model": `openai:${url}#test-model` },
      env: { HEARTH_HOME: hearthHome, HEARTH_OPENAI_API_KEY: "", OPENAI_API_KEY: "" },
    });
  });

  after(async () => {
    if (started.browser && passed) await shot("answered").catch(() => undefined);
    await end(passed);
    server.close();
  });

  it("reaches the server as the bearer token and is written to no setting, log or journal", async () => {
    const page = started.browser!.page;
    const view = await openChatView(page, EXTENSION_ID);

    await runCommand(page, "Hearth: Set API Key for OpenAI-compatible Servers");
    const input = page.locator(".quick-input-widget input[type=password]");
    await input.waitFor({ state: "visible", timeout: 30_000 });
    await input.fill(KEY);
    await page.keyboard.press("Enter");
    await waitFor(
      () => /the API key changed; restarting the kernel/.test(readHearthLog(started.server!.userDataDir)),
      30_000,
      "the kernel restart for the new key",
    );
    await waitFor(
      () => (readHearthLog(started.server!.userDataDir).match(/kernel \S+ ready in/g) ?? []).length >= 2,
      30_000,
      "the restarted kernel",
    );
    await sendChat(page, EXTENSION_ID, "hi");
    const status = view.locator('[data-testid="turn-status"]');
    await status.waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(await status.getAttribute("data-status"), "completed", `the turn reads: ${await status.textContent()}`);
    assert.equal((await view.locator('[data-testid="answer"]').allTextContents()).join(""), ANSWER);
    assert.ok(authorizations.includes(`Bearer ${KEY}`), `the server saw ${JSON.stringify([...new Set(authorizations)])}`);

    await started.server!.stop(); // flush every log and journal before reading them
    const settings = path.join(started.server!.userDataDir, "User");
    const logs = path.join(started.server!.userDataDir, "logs");
    assert.deepEqual([...filesContaining(settings, KEY), ...filesContaining(logs, KEY), ...filesContaining(hearthHome, KEY)], []);
    assert.ok(fs.readdirSync(path.join(hearthHome, "journals")).length > 0, "the journal was written where the test looks");
    passed = true;
  });
});

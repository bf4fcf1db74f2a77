// MCP servers in the workbench (issue 28 done-when), with Hearth's .vsix installed and a scripted
// model (test/fixtures/scripts/mcp-echo.json): a server from the workspace's .vscode/mcp.json
// (the registry's server-everything) is confirmed in a modal that shows its command line, the MCP
// view shows it running with its tools, its tool's call is approved on the card (which names the
// server, the tool and the exact arguments), and the answer shows its result; then its prompt runs
// as `/everything:simple-prompt` and its resource is attached with `@` (issue 28 item 5).
// Screenshots of each step are kept in the run folder.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { EVERYTHING } from "../support/mcpServers.js";
import { newScenario } from "./support/scenario.js";
import { openScriptedChat, sendChat, turnEnds } from "./support/scriptedChat.js";
import type { Page } from "./support/playwright.js";
import { runCommand, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/mcp-echo.json");
const DOC = "architecture.md";
const DOC_URI = `demo://resource/static/document/${DOC}`;

/** The fixture's rounds, then (c)'s: the prompt's message, then the typed text with the resource's block. */
function scriptWithContext(scratch: string): string {
  const fixture = JSON.parse(fs.readFileSync(SCRIPT, "utf8")) as { rounds: unknown[] };
  const prompt = "This is a simple prompt without arguments.";
  const doc = fs.readFileSync(path.join(path.dirname(EVERYTHING), "docs", DOC), "utf8");
  const attached = `Summarise it\n\n<attached resource=${JSON.stringify(DOC_URI)} server="everything">\n${doc}${doc.endsWith("\n") ? "" : "\n"}</attached>`;
  const users = ["Echo something", prompt];
  const rounds = [
    ...fixture.rounds,
    { expectUsers: users, text: ["Prompted."] },
    { expectUsers: [...users, attached], text: ["Summarised."] },
  ];
  const file = path.join(scratch, "mcp-context.json");
  fs.writeFileSync(file, JSON.stringify({ ...fixture, rounds }));
  return file;
}

/** The chat's message box holds the focus (and F1) after the chat opens: the palette opens from the editor area. */
async function workbenchCommand(page: Page, title: string): Promise<void> {
  await page.locator(".monaco-workbench .part.editor").click();
  await runCommand(page, title);
}

describe("an MCP server from .vscode/mcp.json: confirmed, its tool approved on the card, its result in the answer (issue 28)", {
  timeout: 240_000,
}, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("mcpServers", "hearth-e2e-mcp-");
  let passed = 0;

  before(async () => {
    fs.mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    const servers = { everything: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] } };
    fs.writeFileSync(path.join(workspace, ".vscode", "mcp.json"), JSON.stringify({ servers }, null, 2));
    await openScriptedChat(started, { scratch, workspace, script: scriptWithContext(scratch) });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 3));

  it("(a) the confirmation shows the server's command line; once confirmed the MCP view shows it running with its tools", async () => {
    const page = started.browser!.page;
    await workbenchCommand(page, "Hearth: Confirm and Start MCP Server…");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "everything" }).first().click();
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor({ state: "visible", timeout: 30_000 });
    const text = (await dialog.textContent()) ?? "";
    assert.match(text, /Start the MCP server "everything" from \.vscode\/mcp\.json\?/);
    assert.ok(text.includes(`${EVERYTHING} stdio`), `the command line is shown: ${text}`);
    await shot("a-confirm-modal");
    await dialog.locator(".monaco-button", { hasText: "Start Server" }).click();
    await workbenchCommand(page, "Hearth: Focus on MCP Servers View");
    const row = page.locator(".monaco-list-row", { hasText: "everything" }).filter({ hasText: /running, \d+ tools/ });
    await row.waitFor({ state: "visible", timeout: 60_000 });
    clock.mark("server running");
    await shot("a-mcp-view-running");
    passed++;
  });

  it("(b) its tool's call is approved on the card, which names the server, the tool and the exact arguments; the answer shows its result", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await workbenchCommand(page, "Hearth: Focus Chat");
    await sendChat(page, EXTENSION_ID, "Echo something");
    const card = view.locator('[data-testid="approval-card"][data-state="pending"]');
    await card.waitFor({ state: "visible", timeout: 60_000 });
    const ask = (await card.locator('[data-testid="approval-ask"]').textContent()) ?? "";
    assert.match(
      ask,
      /^MCP server "everything" \(\.vscode\/mcp\.json: .*\)\ntool "echo" with arguments:\n\{\n {2}"message": "hello from the workbench"\n\}$/s,
    );
    await shot("b-mcp-card");
    await card.locator('[data-testid="approval-allow"]').click();
    // The script's second round fails the turn unless it is shown exactly the server's marked result.
    assert.equal(await turnEnds(page, EXTENSION_ID, 1), "completed");
    assert.match((await view.locator('[data-testid="tool-result"]').last().textContent()) ?? "", /Echo: hello from the workbench/);
    await shot("b-answer-with-result");
    passed++;
  });

  it("(c) its prompt runs as /everything:simple-prompt; its resource is attached with @ and shown as a chip (issue 28 item 5)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    const box = view.locator("#message textarea");
    await box.fill("/everything:simple");
    // Highlighted, not only shown: the list filters as the box changes, and Enter picks the highlighted one.
    const item = view.locator('[data-testid="slash-item"].prompt.active', { hasText: "/everything:simple-prompt" });
    await item.waitFor({ state: "visible", timeout: 30_000 });
    await shot("c-mcp-prompt-listed");
    await box.press("Enter");
    assert.equal(await box.inputValue(), "/everything:simple-prompt", "picked: it takes no arguments, so no space is added");
    await box.press("Enter");
    // The script's round fails the turn unless the model is shown the prompt's message.
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed");
    assert.equal(
      await view.locator('[data-testid="user-message"]').last().locator(".body").textContent(),
      "This is a simple prompt without arguments.",
    );

    await box.fill("Summarise it @");
    const quickInput = page.locator(".quick-input-widget input");
    await quickInput.waitFor({ state: "visible", timeout: 15_000 });
    await quickInput.fill(`everything: ${DOC}`);
    await page
      .locator(".quick-input-list .monaco-list-row", { hasText: `everything: ${DOC}` })
      .first()
      .click();
    const chips = view.locator('[data-testid="composer-chips"] [data-testid="context-chip"]');
    await chips.first().waitFor({ state: "visible", timeout: 15_000 });
    assert.deepEqual(await chips.locator(".chip-label").allTextContents(), [`everything: ${DOC_URI}`]);
    await shot("c-mcp-resource-chip");
    await sendChat(page, EXTENSION_ID, "Summarise it");
    // The round fails unless the model is shown the typed text and the resource's text the kernel read.
    assert.equal(await turnEnds(page, EXTENSION_ID, 3), "completed");
    const sent = view.locator('[data-testid="user-message"]').last();
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), [`everything: ${DOC_URI}`]);
    await shot("c-mcp-resource-sent");
    passed++;
  });
});

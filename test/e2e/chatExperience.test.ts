// The chat view people expect (issue 15, issue 13's chat side) in a real workbench: a scripted model
// (test/fixtures/scripts/chat-markdown.json) answers with markdown, a code block and hostile HTML;
// tool calls show as cards with the ledger's state; a loop guard's stop is said plainly; Compact
// marks the condensed history; past chats are listed, renamed, reopened and deleted by keyboard.
// Screenshots of each part land in the run folder (test/e2e/.runs/chatExperience-*).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, webviewViewFrame } from "./support/webview.js";
import type { FrameLocator, Page } from "./support/playwright.js";
import { scriptedModel, startWorkbench, sendChat } from "./support/scriptedChat.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/chat-markdown.json");

describe("the chat view people expect (issue 15)", { timeout: 300_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("chatExperience", "hearth-e2e-");
  let passed = false;
  /** Scenario steps that ran to their end: the run counts as passed (its profile removed) only if all did. */
  let stepsDone = 0;
  let page: Page;
  let view: FrameLocator;

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "README.md"), "# notes\n");
    page = await startWorkbench(started, {
      scratch,
      workspace,
      ...scriptedModel(SCRIPT),
      mark: clock.mark,
    });
  });

  after(() => end(passed));

  it("the header names the model and the chat; the kernel's details and Restart are under its menu (item 4)", async () => {
    // README.md open in an editor: Insert at cursor goes there.
    await page.keyboard.press("Control+P");
    await page.locator(".quick-input-widget input").fill("README.md");
    await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ state: "visible" });
    await page.keyboard.press("Enter");
    await page.locator(".monaco-editor .view-line").first().waitFor({ state: "visible", timeout: 30_000 });
    await openActivityBarContainer(page, "Hearth");
    view = webviewViewFrame(page, EXTENSION_ID);
    await view.locator('[data-testid="model-status"]').waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await view.locator('[data-testid="model-status"]').textContent()) ?? "", /^Model: chat-markdown\.json|^Model: /);
    assert.equal(await view.locator('[data-testid="chat-title"]').textContent(), "New chat");
    assert.equal(await view.locator('[data-testid="kernel-version"]').isVisible(), false, "the kernel version is not in the header");
    await view.locator('[data-testid="kernel-menu"] > summary').click();
    await view.locator('[data-testid="kernel-version"]').waitFor({ state: "visible", timeout: 60_000 });
    assert.ok(await view.locator("#restart").isVisible(), "Restart is in the kernel menu");
    await shot("header-kernel-menu");
    await view.locator('[data-testid="kernel-menu"] > summary').click();
    stepsDone++;
  });

  it("an answer renders as markdown with a highlighted code block; hostile HTML, javascript:/data: links and images are inert; tool calls are cards with the ledger's state (items 1, 3)", async () => {
    await sendChat(page, EXTENSION_ID, "Show me a parse helper");
    // A call shows as a card while the model is still writing it (issue 25 item 4): the script streams
    // each call's arguments in ten pieces 150 ms apart.
    const writing = view.locator('[data-testid="tool-call-pending"][data-tool="read_file"][data-status="writing"]');
    await writing.first().waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await writing.first().locator('[data-testid="tool-status"]').textContent()) ?? "", /^writing the call… \d+ s/);
    await shot("call-being-written");
    const status = view.locator('[data-testid="turn-status"]');
    await status.waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(await status.getAttribute("data-status"), "completed", (await status.textContent()) ?? "");
    const answer = view.locator('[data-testid="answer"]').last();
    assert.equal(await answer.locator("h2").textContent(), "Parsing a number");
    assert.ok((await answer.locator("pre code .hljs-keyword").count()) > 0, "the TypeScript block is highlighted");
    const inert = await answer.evaluate((node) => ({
      dangerous: node.querySelectorAll("script, img, iframe, style, [onerror], [onclick], [style]").length,
      hrefs: Array.from(node.querySelectorAll("a[href]")).map((a: Element) => a.getAttribute("href")),
      text: node.textContent ?? "",
    }));
    assert.equal(inert.dangerous, 0);
    assert.deepEqual(inert.hrefs, ["https://example.invalid/i.png"], "only the image's https link remains, as a link");
    assert.match(inert.text, /<script>alert\('xss'\)<\/script>/, "raw HTML shows as text");
    // Tool calls as cards: target and the state (the failure readable without unfolding).
    const cards = view.locator('[data-testid="tool-call"]');
    assert.deepEqual(
      await cards.evaluateAll((n) =>
        n.map((c) => [c.querySelector('[data-testid="tool-target"]')?.textContent, (c as HTMLElement).dataset.status]),
      ),
      [
        ["README.md", "succeeded"],
        ["missing.txt", "failed"],
      ],
    );
    assert.match((await cards.nth(1).locator('[data-testid="tool-result"] summary').textContent()) ?? "", /^Error: /);
    assert.equal(await view.locator('[data-testid="tool-call-pending"]').count(), 0, "each card being written became its call's card");
    assert.equal(await view.locator('[data-testid="turn-footer"]').count(), 1);
    assert.match(
      (await view.locator('[data-testid="announcer"]').textContent()) ?? "",
      /^Hearth answered: /,
      "the completed answer is announced once",
    );
    assert.equal(await view.locator("[aria-live]").count(), 1, "one live region, not the whole view");
    await view.locator('[data-testid="code-block"]').first().scrollIntoViewIfNeeded();
    await shot("rendered-answer-and-cards");
    clock.mark("rendered answer");

    // Insert at cursor: the code lands in README.md's editor (the last active one).
    await view.locator('[data-testid="code-insert"]').first().click();
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll(".monaco-editor .view-line")).some((l) =>
          l.textContent?.replace(/\u00a0/g, " ").includes("export function parse"),
        ),
      undefined,
      { timeout: 15_000 },
    );
    await view.locator('[data-testid="code-copy"]').first().click();
    assert.equal(await view.locator('[data-testid="code-copy"]').first().textContent(), "Copied");
    stepsDone++;
  });

  it("a loop guard's stop is said plainly with what to do next (issue 13)", async () => {
    await sendChat(page, EXTENSION_ID, "Look for gone.txt");
    const stopped = view.locator('[data-testid="turn-status"][data-status="stopped"]');
    await stopped.waitFor({ state: "attached", timeout: 60_000 });
    assert.match((await stopped.textContent()) ?? "", /^Stopped: /);
    assert.match((await view.locator(".turn-hint").last().textContent()) ?? "", /Rephrase the request/);
    await stopped.scrollIntoViewIfNeeded();
    await shot("loop-guard-stopped");
    stepsDone++;
  });

  it("Compact condenses the earlier turns and the transcript marks them (issue 13)", async () => {
    await view.locator("#compact").click();
    const marker = view.locator('[data-testid="condensed-marker"]');
    await marker.waitFor({ state: "attached", timeout: 60_000 });
    assert.match((await marker.textContent()) ?? "", /You compacted the chat/);
    assert.ok((await view.locator(".msg.condensed").count()) > 0, "the condensed messages stay, dimmed");
    await marker.scrollIntoViewIfNeeded();
    await shot("condensed-marker");
    stepsDone++;
  });

  it("past chats: listed with title, time, model and state; renamed, searched, reopened and deleted by keyboard only (item 2, item 6)", async () => {
    await view.locator("#new-chat").click();
    await sendChat(page, EXTENSION_ID, "A second chat");
    await view.locator('[data-testid="turn-status"]').last().waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(await view.locator('[data-testid="chat-title"]').textContent(), "A second chat");

    // Keyboard only from here: focus History, Enter; Tab to the search field; type.
    await view.locator("#history").focus();
    await page.keyboard.press("Enter");
    const rows = view.locator('[data-testid="session-row"]');
    await rows.nth(1).waitFor({ state: "visible", timeout: 30_000 });
    assert.deepEqual(await rows.locator('[data-testid="session-title"]').allTextContents(), ["A second chat", "Show me a parse helper"]);
    assert.match((await rows.nth(1).locator('[data-testid="session-facts"]').textContent()) ?? "", / · chat-markdown\.json · idle$/);
    await shot("history-list");

    // Rename the first chat: its Rename button, type, Enter.
    await rows.nth(1).locator('[data-testid="session-rename"]').focus();
    await page.keyboard.press("Enter");
    await view.locator('[data-testid="session-rename-input"]').waitFor({ state: "visible", timeout: 10_000 });
    // The input opens with the old title selected: typing replaces it. (Ctrl+A is not used: the
    // workbench may take it from a webview, and a run once lost the first letters that way.)
    await page.keyboard.type("Parse helper");
    await page.keyboard.press("Enter");
    await view.locator('[data-testid="session-title"]', { hasText: "Parse helper" }).waitFor({ timeout: 30_000 });

    // Search by title, then open the match with Enter.
    await view.locator("#session-search").focus();
    await page.keyboard.type("parse");
    await rows.nth(1).waitFor({ state: "detached", timeout: 10_000 });
    await rows.first().locator('[data-testid="session-open"]').focus();
    await page.keyboard.press("Enter");
    await view.locator('[data-testid="condensed-marker"]').waitFor({ state: "attached", timeout: 30_000 });
    assert.equal(await view.locator('[data-testid="chat-title"]').textContent(), "Parse helper");

    // Copy a code block by keyboard.
    const copy = view.locator('[data-testid="code-copy"]').first();
    await copy.focus();
    await page.keyboard.press("Enter");
    assert.equal(await copy.textContent(), "Copied");

    // Delete the second chat: hidden from the list (the journal keeps it).
    await view.locator("#history").focus();
    await page.keyboard.press("Enter");
    await view.locator("#session-search").focus();
    await page.keyboard.press("End");
    for (let i = 0; i < "parse".length; i++) await page.keyboard.press("Backspace");
    await rows.nth(1).waitFor({ state: "visible", timeout: 30_000 });
    await rows.filter({ hasText: "A second chat" }).locator('[data-testid="session-hide"]').focus();
    await page.keyboard.press("Enter");
    await rows.nth(1).waitFor({ state: "detached", timeout: 30_000 });
    assert.deepEqual(await rows.locator('[data-testid="session-title"]').allTextContents(), ["Parse helper"]);
    await shot("history-after-delete");
    stepsDone++;
  });

  it("the chat view runs under its strict CSP without a violation (markdown, highlighting, cards)", () => {
    const ours = started.browser!.consoleErrors.filter((e) => e.includes("Content Security Policy") && e.includes(`/${EXTENSION_ID}-`));
    assert.deepEqual(ours, []);
    passed = stepsDone === 5;
  });
});

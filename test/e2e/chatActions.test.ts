// The chat's actions on files and sessions (issue 15) in a real workbench with Hearth's .vsix and a
// scripted model (test/fixtures/scripts/chat-actions.json): Apply to file proposes the code block in
// its file with the approval lenses and only Accept writes it (a block naming a file outside the
// folder is refused); the current selection and a file picked with @ go with a message as chips,
// and the model is shown exactly what the kernel read (the script checks it); Erase is refused while
// the chat's turn runs, then asks with a modal that says it is irreversible and removes the chat.
// Screenshots of each step land in the run folder (test/e2e/.runs/chatActions-*).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { lens, openScriptedChat, sendChat, turnEnds as nthTurnEnd } from "./support/scriptedChat.js";
import { quickOpen, webviewViewFrame } from "./support/webview.js";
import type { FrameLocator } from "./support/playwright.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/chat-actions.json");
const STEPS = 3;

describe("chat actions: Apply to file, context chips, Erase (issue 15)", { timeout: 300_000 }, () => {
  const { scratch, workspace, clock, started, page, shot, end } = newScenario("chatActions", "hearth-e2e-actions-");
  let passed = 0;
  const view = (): FrameLocator => webviewViewFrame(page(), EXTENSION_ID);
  const turnEnds = (n: number) => nthTurnEnd(page(), EXTENSION_ID, n);
  const lastNotice = () => view().locator(".notice").last();

  before(async () => {
    fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "README.md"), "# notes\n");
    fs.writeFileSync(path.join(workspace, "lib.ts"), "alpha\nbeta\ngamma\ndelta\n");
    fs.writeFileSync(path.join(workspace, "src/helper.ts"), "export const helper = 0;\n");
    await openScriptedChat(started, { scratch, workspace, script: SCRIPT });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === STEPS));

  it("Apply proposes the block in the file it names with the approval lenses; only Accept writes it; a file outside the folder is refused (item 1)", async () => {
    await sendChat(page(), EXTENSION_ID, "Write the helper");
    assert.equal(await turnEnds(1), "completed");
    const blocks = view().locator('[data-testid="code-block"]');
    assert.equal(await blocks.first().locator(".code-language").textContent(), "ts · src/helper.ts", "the bar names the fence's file");
    await blocks.first().locator('[data-testid="code-apply"]').click();
    const accept = lens(page(), "Accept (1 hunk)");
    await accept.waitFor({ state: "visible", timeout: 60_000 });
    assert.equal(
      fs.readFileSync(path.join(workspace, "src/helper.ts"), "utf8"),
      "export const helper = 0;\n",
      "nothing is written before Accept",
    );
    await shot("apply-proposed-with-lenses");
    await accept.click();
    assert.equal(await turnEnds(2), "completed");
    assert.equal(
      fs.readFileSync(path.join(workspace, "src/helper.ts"), "utf8"),
      "export const helper = 42;\n",
      "Accept: the file is the block",
    );
    assert.match((await view().locator('[data-testid="answer"]').last().textContent()) ?? "", /^Applied to src\/helper\.ts/);
    assert.equal(
      await view().locator('[data-testid="user-message"]').last().locator(".body").textContent(),
      "Apply the code block to src/helper.ts (replace its content with the block).",
    );

    // The proposal's lenses go once it is answered.
    await lens(page(), "Reject").waitFor({ state: "detached", timeout: 15_000 });
    await view().locator('[data-testid="turn-footer"]').last().scrollIntoViewIfNeeded();
    await shot("apply-accepted");

    await blocks.nth(1).locator('[data-testid="code-apply"]').click();
    await lastNotice().filter({ hasText: "outside the workspace folder" }).waitFor({ timeout: 15_000 });
    assert.match(
      (await lastNotice().textContent()) ?? "",
      /^Apply to file was refused: the file the code block names, \.\.\/outside\.ts, is outside/,
    );
    assert.equal(fs.existsSync(path.join(scratch, "outside.ts")), false);
    await lastNotice().scrollIntoViewIfNeeded();
    await shot("apply-outside-refused");
    passed++;
  });

  it("the selection and a file picked with @ go with the message as chips (+ File and × too); the model is shown what the kernel read (item 5)", async () => {
    // lib.ts in the editor, lines 2-3 selected.
    await quickOpen(page(), "lib.ts", ".part.editor .monaco-editor .view-lines");
    await page().locator(".monaco-editor .view-line", { hasText: "gamma" }).first().waitFor({ state: "visible", timeout: 30_000 });
    await page().locator(".monaco-editor .view-line", { hasText: "beta" }).first().click();
    await page().keyboard.press("Home");
    await page().keyboard.press("Shift+ArrowDown");
    await page().keyboard.press("Shift+ArrowDown");
    await view().locator('[data-testid="attach-selection"]').click();
    const chips = view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]');
    await chips.first().waitFor({ state: "visible", timeout: 15_000 });
    // "@" starting a word opens the workspace's file picker.
    await view().locator("#message textarea").fill("Explain these @");
    await page().locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 15_000 });
    await page().locator(".quick-input-widget input").fill("README.md");
    await page().locator(".quick-input-list .monaco-list-row", { hasText: "README.md" }).first().click();
    await chips.nth(1).waitFor({ state: "visible", timeout: 15_000 });
    assert.deepEqual(await chips.locator(".chip-label").allTextContents(), ["lib.ts:2-3", "README.md"]);
    // + File takes the active editor's file; its × takes it off again before sending.
    await view().locator('[data-testid="attach-file"]').click();
    await chips.nth(2).waitFor({ state: "visible", timeout: 15_000 });
    assert.equal(await chips.nth(2).locator(".chip-label").textContent(), "lib.ts");
    await chips.nth(2).locator('[data-testid="chip-remove"]').click();
    await chips.nth(2).waitFor({ state: "detached", timeout: 5_000 });
    assert.equal(await view().locator("#message textarea").inputValue(), "Explain these ", "the @ is not kept in the message");
    await shot("context-chips-before-send");

    await sendChat(page(), EXTENSION_ID, "Explain these");
    // The script's round fails unless the model is shown the typed text and both blocks exactly.
    assert.equal(await turnEnds(3), "completed", (await view().locator('[data-testid="turn-status"]').nth(2).textContent()) ?? "");
    const sent = view().locator('[data-testid="user-message"]').last();
    assert.equal(await sent.locator(".body").textContent(), "Explain these");
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), ["lib.ts:2-3", "README.md"]);
    assert.equal(await chips.count(), 0, "the composer's chips go with the message");
    await sent.scrollIntoViewIfNeeded();
    await shot("context-chips-sent");
    passed++;
  });

  it("Erase is refused while the chat's turn runs, then asks with a modal that says it cannot be undone and removes the chat (item 2)", async () => {
    await sendChat(page(), EXTENSION_ID, "Take your time");
    await view().locator("#history").click();
    const row = view().locator('[data-testid="session-row"]').filter({ hasText: "Write the helper" });
    await row.waitFor({ state: "visible", timeout: 30_000 });
    const confirmErase = async () => {
      await row.locator('[data-testid="session-erase"]').click();
      const dialog = page().locator(".monaco-dialog-box");
      await dialog.waitFor({ state: "visible", timeout: 15_000 });
      assert.match((await dialog.textContent()) ?? "", /Erase the chat "Write the helper" for good\?.*cannot be undone/s);
      return dialog;
    };
    // While the chat's turn runs, Erase says so instead of asking.
    await row.locator('[data-testid="session-erase"]').click();
    await lastNotice().filter({ hasText: "was not erased" }).waitFor({ state: "attached", timeout: 15_000 });
    assert.match((await lastNotice().textContent()) ?? "", /a turn of it is running\. Press Stop/);
    assert.equal(await page().locator(".monaco-dialog-box").count(), 0, "no confirmation for an erase that cannot happen");
    const listNotice = view().locator('[data-testid="session-notice"]');
    assert.match(
      (await listNotice.textContent()) ?? "",
      /was not erased: a turn of it is running/,
      "said where the person is: on the open list",
    );
    await shot("erase-refused-while-running");

    assert.equal(await turnEnds(4), "completed");
    // Erase again once the turn has ended: the modal says it cannot be undone.
    if (!(await row.isVisible())) await view().locator("#history").click();
    const dialog = await confirmErase();
    await shot("erase-confirmation");
    await dialog.locator(".monaco-button", { hasText: "Erase for good" }).click();
    await row.waitFor({ state: "detached", timeout: 30_000 });
    assert.match(
      (await lastNotice().textContent()) ?? "",
      /^Erased the chat "Write the helper": 10 messages were removed from the journal\.$/,
    );
    assert.equal(await view().locator('[data-testid="chat-title"]').textContent(), "New chat", "the erased chat gives way to a new one");
    assert.match((await listNotice.textContent()) ?? "", /^Erased the chat "Write the helper"/);
    await shot("erased-history");
    await view().locator("#history").click();
    await lastNotice().waitFor({ state: "visible", timeout: 10_000 });
    await shot("erased-notice");
    passed++;
  });
});

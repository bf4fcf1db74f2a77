// Approvals where the person works (issue 14), in a real workbench with Hearth's .vsix installed and
// a scripted model (test/fixtures/scripts/edit-approvals.json): an edit proposal is drawn in its
// file with code lenses; Accept installs exactly the proposal; Reject this hunk writes nothing and
// the model's next round is shown the denial naming the hunk (the script asserts it); typing in a
// pending target denies the call and keeps the typed text; shell calls are allowed and denied on
// their cards in the chat. Screenshots of each step are kept in the run folder.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { newScenario } from "./support/scenario.js";
import { lens, openScriptedChat, sendChat, turnEnds as nthTurnEnd } from "./support/scriptedChat.js";
import type { Page } from "./support/playwright.js";
import { webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/edit-approvals.json");

const APP = "one\ntwo\nthree\nfour\nfive\n";
const APP_PROPOSED = "one\nTWO\nthree\nfour\nFIVE\nsix\n";
const NOTES = "alpha\nbeta\n";

/** The active editor's lines in order, each with how it is drawn: red (removed), green (added) or plain. */
async function drawnLines(page: Page): Promise<[string, "removed" | "added" | null][]> {
  const editor = page.locator(".editor-group-container.active .monaco-editor").first();
  const lines = await editor
    .locator(".view-line")
    .evaluateAll((all) => all.map((l) => ({ top: (l as HTMLElement).style.top, text: (l.textContent ?? "").replace(/\u00a0/g, " ") })));
  // Extension decorations are `ced-…` elements in the overlay row of their line.
  const colours = await editor.locator(".view-overlays > div").evaluateAll((rows) =>
    rows.flatMap((row) =>
      Array.from(row.children)
        .filter((d) => /\bced-/.test(d.className) && getComputedStyle(d).backgroundColor !== "rgba(0, 0, 0, 0)")
        .map((d) => ({ top: (row as HTMLElement).style.top, colour: getComputedStyle(d).backgroundColor })),
    ),
  );
  const distinct = [...new Set(colours.map((c) => c.colour))];
  assert.ok(distinct.length <= 2, `two colours at most: ${JSON.stringify(colours)}`);
  return lines
    .sort((a, b) => Number.parseFloat(a.top) - Number.parseFloat(b.top))
    .map((l) => {
      const colour = colours.find((c) => c.top === l.top)?.colour;
      // Red has more red than green; green the other way round (any theme's diff colours).
      const [r, g] = (colour?.match(/\d+/g) ?? []).map(Number);
      return [l.text, colour === undefined ? null : r! > g! ? "removed" : "added"];
    });
}

describe("approvals in place: edit lenses in the file, shell cards in the chat (issue 14)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("editApprovals", "hearth-e2e-edits-");
  let passed = 0;

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "app.txt"), APP);
    fs.writeFileSync(path.join(workspace, "notes.txt"), NOTES);
    await openScriptedChat(started, { scratch, workspace, script: SCRIPT });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 4));

  const send = (text: string) => sendChat(started.browser!.page, EXTENSION_ID, text);
  const turnEnds = (n: number) => nthTurnEnd(started.browser!.page, EXTENSION_ID, n);

  it("(a) a proposal is drawn in its file with lenses and decorations, and Accept makes the file on disk exactly the proposal", async () => {
    const page = started.browser!.page;
    await send("Change app.txt");
    const accept = lens(page, "Accept (2 hunks)");
    await accept.waitFor({ state: "visible", timeout: 60_000 });
    clock.mark("edit lenses shown");
    assert.equal(await lens(page, "Reject").count(), 1);
    assert.equal(await lens(page, "Show diff").count(), 1);
    assert.equal(await lens(page, "Reject this hunk").count(), 2, "one lens per hunk");
    assert.match((await page.locator(".tabs-container .tab.active").first().textContent()) ?? "", /app\.txt/, "the target is open");
    // issue 25 item 9: the file with the proposal merged in, each removed line red and each proposed
    // line green on a line of its own (never the new text appended to the old line).
    assert.deepEqual(await drawnLines(page), [
      ["one", null],
      ["two", "removed"],
      ["TWO", "added"],
      ["three", null],
      ["four", null],
      ["five", "removed"],
      ["FIVE", "added"],
      ["six", "added"],
      ["", null], // the editor's line after the final newline
    ]);
    assert.equal(fs.readFileSync(path.join(workspace, "app.txt"), "utf8"), APP, "nothing is written before Accept");
    await shot("a-proposal-lenses");
    // issue 25 item 9: the chat's card says the decision waits in the editor, and shows it there.
    const view = webviewViewFrame(page, EXTENSION_ID);
    const waiting = view.locator('.tool-call [data-testid="edit-waiting"]');
    await waiting.waitFor({ state: "visible", timeout: 10_000 });
    assert.match((await waiting.textContent()) ?? "", /Waiting for you in app\.txt/);
    await shot("a-card-waiting");
    await waiting.locator('[data-testid="edit-reveal"]').click();
    await page.locator(".part.editor .monaco-editor.focused").waitFor({ state: "visible", timeout: 10_000 });
    assert.match(
      (await page.locator(".tabs-container .tab.active").first().textContent()) ?? "",
      /app\.txt/,
      "the proposal's file is shown",
    );
    await accept.click();
    assert.equal(await turnEnds(1), "completed");
    assert.equal(fs.readFileSync(path.join(workspace, "app.txt"), "utf8"), APP_PROPOSED, "the file on disk is exactly the proposal");
    await lens(page, "Reject").waitFor({ state: "detached", timeout: 10_000 });
    await waiting.waitFor({ state: "detached", timeout: 10_000 });
    // The proposal view's tab gives way to the file itself, which shows the write once it lands.
    await page
      .locator(".editor-group-container.active .monaco-editor .view-line")
      .filter({ hasText: /^six$/ })
      .waitFor({ state: "visible", timeout: 30_000 });
    assert.equal(await page.locator(".tabs-container .tab", { hasText: "app.txt" }).count(), 1, "one app.txt tab: the file's");
    await shot("a-accepted");
    assert.match(
      readHearthLog(started.server!.userDataDir),
      /approval: write_file \(idempotent_write\) call \S+ in run \S+ → approve \(accepted in the editor: the proposed change to app\.txt as shown \(2 hunks\)\)/,
    );
    passed++;
  });

  it("(b) Reject this hunk writes nothing and the model's next round is shown the denial naming the hunk", async () => {
    const page = started.browser!.page;
    const before = fs.readFileSync(path.join(workspace, "app.txt"));
    await send("Change it again");
    const rejectHunk = lens(page, "Reject this hunk");
    await lens(page, "Accept (2 hunks)").waitFor({ state: "visible", timeout: 60_000 });
    // The second hunk (after line 6) is the lower lens on the page.
    const boxes = await rejectHunk.evaluateAll((links) => links.map((l) => l.getBoundingClientRect().top));
    assert.equal(boxes.length, 2);
    await shot("b-before-reject-hunk");
    await rejectHunk.nth(boxes[0]! > boxes[1]! ? 0 : 1).click();
    // The script's next round fails the turn unless it is shown exactly the denial naming the hunk.
    assert.equal(await turnEnds(2), "completed");
    assert.deepEqual(fs.readFileSync(path.join(workspace, "app.txt")), before, "byte-identical");
    const view = webviewViewFrame(page, EXTENSION_ID);
    assert.match(
      (await view.locator('[data-testid="tool-result"]').last().textContent()) ?? "",
      /rejected the hunk at app\.txt after line 6 \(-0 \+1\)/,
    );
    passed++;
  });

  it("(c) typing in a pending target denies the call with a clear message, keeps the typed text and removes the lenses", async () => {
    const page = started.browser!.page;
    // The person has notes.txt open (kept, not in the preview slot): the proposal is shown in a
    // read-only view of its own, and the file itself is where they type.
    const quickInput = page.locator(".quick-input-widget input");
    for (let tries = 0; !(await quickInput.isVisible()); tries++) {
      assert.ok(tries < 5, "Quick Open did not open");
      await page.locator(".part.editor").first().click();
      await page.keyboard.press("Control+P");
      await quickInput.waitFor({ state: "visible", timeout: 3_000 }).catch(() => undefined);
    }
    await quickInput.fill("notes.txt");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "notes.txt" }).first().click();
    await page.locator(".monaco-editor .view-line", { hasText: "alpha" }).first().waitFor({ state: "visible", timeout: 30_000 });
    await page.locator(".tabs-container .tab.active").dblclick(); // kept open: the proposal's preview does not replace it
    await send("Edit notes.txt");
    await lens(page, "Accept (1 hunk)").waitFor({ state: "visible", timeout: 60_000 });
    await shot("c-pending-notes");
    await page.locator(".tabs-container .tab:not(.active)", { hasText: "notes.txt" }).first().click();
    await page
      .locator(".monaco-editor .view-line")
      .filter({ hasText: /^alpha$/ })
      .click();
    await page.keyboard.press("End");
    await page.keyboard.type(" typed");
    assert.equal(await turnEnds(3), "completed");
    await lens(page, "Reject").waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(fs.readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES, "nothing written");
    assert.ok(
      (await page.locator(".monaco-editor .view-line").allTextContents()).some((l) => l.replace(/\u00a0/g, " ") === "alpha typed"),
      "the typed text stays in the editor",
    );
    const view = webviewViewFrame(page, EXTENSION_ID);
    assert.match(
      (await view.locator('[data-testid="tool-result"]').last().textContent()) ?? "",
      /changed notes\.txt in the editor while the proposal was pending/,
    );
    await shot("c-typed-denied");
    passed++;
  });

  it("(d) a shell call is allowed on its card in the chat, the next one denied there; no modal dialog", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await send("Run two commands");
    const card = view.locator('[data-testid="approval-card"][data-state="pending"]');
    await card.waitFor({ state: "visible", timeout: 60_000 });
    assert.match(
      (await card.locator('[data-testid="approval-ask"]').textContent()) ?? "",
      new RegExp(`^run in ${fs.realpathSync(workspace).replace(/[/.]/g, "\\$&")} .*\\necho allowed > shell-allowed\\.txt$`, "s"),
    );
    assert.equal(await page.locator(".monaco-dialog-box").count(), 0, "no modal dialog");
    await shot("d-shell-card");
    await card.locator('[data-testid="approval-allow"]').click();
    await view
      .locator('[data-testid="approval-card"][data-state="pending"]')
      .filter({ hasText: "shell-denied" })
      .waitFor({ state: "visible", timeout: 60_000 });
    await view.locator('[data-testid="approval-card"][data-state="pending"] [data-testid="approval-deny"]').click();
    assert.equal(await turnEnds(4), "completed");
    assert.equal(fs.readFileSync(path.join(workspace, "shell-allowed.txt"), "utf8"), "allowed\n");
    assert.equal(fs.existsSync(path.join(workspace, "shell-denied.txt")), false);
    assert.deepEqual(await view.locator('[data-testid="approval-outcome"]').allTextContents(), [
      "Allowed: allowed on its card in the chat",
      "Denied: the person denied it on its card in the chat",
    ]);
    const log = readHearthLog(started.server!.userDataDir);
    assert.equal((log.match(/approval: shell /g) ?? []).length, 2, "exactly one answer per request");
    await shot("d-shell-answered");
    passed++;
  });
});

// Undo of a turn's edits (issue 14 item 5, Done-when (e)) in a real workbench with Hearth's .vsix and
// a scripted model (test/fixtures/scripts/undo-edits.json). Edits are accepted from their code lenses;
// "Undo these edits" on the turn asks first (naming each file), then puts the modified file back to
// its exact bytes before the turn and removes the created one. "Hearth: Undo Last Turn's Edits" asks
// in a notification; a file the person changed since the turn is refused alone, the other undone.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { newScenario } from "./support/scenario.js";
import { acceptLens, lens, openScriptedChat, pathOutcomes, sendChat, turnEnds as nthTurnEnd } from "./support/scriptedChat.js";
import { runCommand, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/undo-edits.json");

const APP = Buffer.from("one\ntwo\nthree\n");
const NOTES = "alpha\nbeta\n";
const PERSON = "alpha\nBETA\nthe person's line\n";

const settle = () => new Promise((r) => setTimeout(r, 700));

describe("undo a turn's edits from the chat and the command (issue 14 item 5)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, page, shot, end } = newScenario("undoEdits", "hearth-e2e-undo-");
  let passed = 0;
  const file = (name: string) => path.join(workspace, name);

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(file("app.txt"), APP);
    fs.writeFileSync(file("notes.txt"), NOTES);
    await openScriptedChat(started, { scratch, workspace, script: SCRIPT });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 2));

  const view = () => webviewViewFrame(page(), EXTENSION_ID);
  const send = (text: string) => sendChat(page(), EXTENSION_ID, text);
  const turnEnds = (n: number) => nthTurnEnd(page(), EXTENSION_ID, n);

  const accept = (title: string) => acceptLens(page(), title);

  it("(e) Undo these edits asks first, then restores the modified file's exact bytes and removes the created one", async () => {
    await send("Change app.txt and create new.txt");
    await accept("Accept (1 hunk)");
    // The next proposal's lenses stand aside from the click that decided the first (issue 25 item 9).
    await lens(page(), "Accept (new file)").waitFor({ state: "visible", timeout: 30_000 });
    await shot("e-next-proposal-aside");
    await accept("Accept (new file)");
    assert.equal(await turnEnds(1), "completed");
    assert.equal(fs.readFileSync(file("app.txt"), "utf8"), "one\nTWO\nthree\n");
    assert.equal(fs.readFileSync(file("new.txt"), "utf8"), "made by the turn\n");
    clock.mark("first turn's edits accepted");

    const panel = view().locator('[data-testid="turn-undo"]').first();
    await panel.locator('[data-testid="undo-edits"]').waitFor({ state: "visible", timeout: 30_000 });
    await shot("e-turn-offers-undo");
    await panel.locator('[data-testid="undo-edits"]').click();
    const confirm = panel.locator('[data-testid="undo-confirm"]');
    await confirm.waitFor({ state: "visible", timeout: 10_000 });
    assert.deepEqual(
      await confirm.locator("li").allTextContents(),
      ["restore app.txt", "remove new.txt"],
      "the question names each file and what happens to it",
    );
    assert.equal(fs.readFileSync(file("app.txt"), "utf8"), "one\nTWO\nthree\n", "nothing is undone before the person confirms");
    await shot("e-undo-confirm");
    await confirm.locator('[data-testid="undo-confirm-go"]').click();

    const outcomes = panel.locator('[data-testid="undo-outcome"]');
    await outcomes.nth(1).waitFor({ state: "attached", timeout: 30_000 });
    assert.deepEqual(await pathOutcomes(outcomes), [
      ["app.txt", "restored"],
      ["new.txt", "removed"],
    ]);
    assert.deepEqual(fs.readFileSync(file("app.txt")), APP, "the exact bytes before the turn");
    assert.equal(fs.existsSync(file("new.txt")), false, "the file the turn created is gone");
    await panel.locator('[data-testid="undo-done"]').waitFor({ state: "visible", timeout: 10_000 });
    assert.match(
      readHearthLog(started.server!.userDataDir),
      /undo of run \S+: app\.txt restored: restored `app\.txt` to its 14 bytes before the turn/,
    );
    await shot("e-undone-from-chat");
    passed++;
  });

  it("(e) Hearth: Undo Last Turn's Edits refuses only the file the person changed since the turn and undoes the other", async () => {
    await send("Change app.txt and notes.txt");
    await accept("Accept (1 hunk)");
    await accept("Accept (1 hunk)");
    assert.equal(await turnEnds(2), "completed");
    assert.equal(fs.readFileSync(file("app.txt"), "utf8"), "one\ntwo\nTHREE\n");
    fs.writeFileSync(file("notes.txt"), PERSON); // the person's change after the turn

    await runCommand(page(), "Hearth: Undo Last Turn's Edits");
    const ask = page().locator(".notifications-toasts .notification-toast", { hasText: "Undo the last turn's edits?" });
    await ask.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await ask.textContent()) ?? "", /restores app\.txt, notes\.txt as they were before the turn/);
    await settle(); // the toast slides in
    await shot("e-command-confirm");
    await ask.locator(".monaco-button", { hasText: "Undo Edits" }).click();

    const told = page().locator(".notifications-toasts .notification-toast", { hasText: "Hearth: Undone" });
    await told.waitFor({ state: "visible", timeout: 30_000 });
    // issue 25 item 11: a notification quotes the name, never with Markdown's backticks.
    assert.match((await told.textContent()) ?? "", /restored app\.txt.*refused: “notes\.txt” changed since the turn wrote it/s);
    assert.doesNotMatch((await told.locator(".notification-list-item-message").textContent()) ?? "", /`/);
    assert.deepEqual(fs.readFileSync(file("app.txt")), APP, "the bytes before this turn");
    assert.equal(fs.readFileSync(file("notes.txt"), "utf8"), PERSON, "the person's change is kept");
    const outcomes = view().locator('[data-testid="turn-undo"]').nth(1).locator('[data-testid="undo-outcome"]');
    await outcomes.nth(1).waitFor({ state: "attached", timeout: 10_000 });
    assert.deepEqual(await outcomes.evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.outcome)), ["restored", "refused"]);
    await settle();
    await shot("e-command-refused-one");
    passed++;
  });
});

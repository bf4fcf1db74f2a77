// Rewind in the chat (issue 29 item 1, Done-when: "rewind both of a turn that wrote two files") in a
// real workbench with Hearth's .vsix and a scripted model (test/fixtures/scripts/rewind-both.json).
// The turn's two writes are accepted from their lenses; Rewind on its message previews the three
// choices; Both puts the modified file back to its exact bytes, removes the created one, folds the
// turn under "Rewound" and puts its message back in the box; Undo rewind writes both files again as
// the turn left them and unfolds it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { acceptLens, openScriptedChat, pathOutcomes, sendChat, turnEnds as nthTurnEnd } from "./support/scriptedChat.js";
import { webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/rewind-both.json");
const APP = Buffer.from("one\ntwo\nthree\n");

describe("rewind both of a turn that wrote two files, from the chat (issue 29 item 1)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, page, shot, end } = newScenario("rewindChat", "hearth-e2e-rewind-");
  let passed = 0;
  const file = (name: string) => path.join(workspace, name);

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(file("app.txt"), APP);
    await openScriptedChat(started, { scratch, workspace, script: SCRIPT });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 1));

  const view = () => webviewViewFrame(page(), EXTENSION_ID);

  const accept = (title: string) => acceptLens(page(), title);

  it("Rewind previews each choice; Both restores one file, removes the other and folds the turn; Undo rewind puts it all back", async () => {
    await sendChat(page(), EXTENSION_ID, "Change app.txt and create new.txt");
    await accept("Accept (1 hunk)");
    await accept("Accept (new file)");
    assert.equal(await nthTurnEnd(page(), EXTENSION_ID, 1), "completed");
    assert.equal(fs.readFileSync(file("new.txt"), "utf8"), "made by the turn\n");
    clock.mark("the turn's two writes accepted");

    const message = view().locator('[data-testid="user-message"]').first();
    const open = message.locator('[data-testid="rewind-open"]');
    await open.waitFor({ state: "visible", timeout: 30_000 });
    await open.click();
    const menu = message.locator('[data-testid="rewind-menu"]');
    await menu.waitFor({ state: "visible", timeout: 30_000 });
    const both = menu.locator('.rewind-choice[data-scope="both"] li');
    assert.deepEqual(await both.allTextContents(), [
      "5 messages (1 turn) from here on leave the model's view; they stay in the chat, folded",
      "would put app.txt back to its 14 bytes before these turns",
      "would remove new.txt, which these turns created",
    ]);
    assert.equal(fs.readFileSync(file("app.txt"), "utf8"), "one\nTWO\nthree\n", "nothing changes before a choice is picked");
    await shot("rewind-menu-previews");
    await menu.locator('[data-testid="rewind-both"]').click();

    const head = view().locator('[data-testid="rewound-head"]');
    await head.waitFor({ state: "visible", timeout: 30_000 });
    const outcomes = head.locator('[data-testid="rewind-outcome"]');
    await outcomes.nth(1).waitFor({ state: "attached", timeout: 30_000 });
    assert.deepEqual(await pathOutcomes(outcomes), [
      ["app.txt", "restored"],
      ["new.txt", "removed"],
    ]);
    assert.deepEqual(fs.readFileSync(file("app.txt")), APP, "the exact bytes before the turn");
    assert.equal(fs.existsSync(file("new.txt")), false, "the file the turn created is gone");
    assert.equal(await view().locator('[data-testid="assistant-message"]').first().isVisible(), false, "the rewound turn is folded");
    assert.equal(
      await view().locator("#message textarea").inputValue(),
      "Change app.txt and create new.txt",
      "the rewound message is back in the empty message box, to edit and send again",
    );
    await shot("rewind-both-folded");

    await head.locator('[data-testid="rewind-undo"]').click();
    await head.waitFor({ state: "detached", timeout: 30_000 });
    await view().locator('[data-testid="assistant-message"]').first().waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(fs.readFileSync(file("app.txt"), "utf8"), "one\nTWO\nthree\n");
    assert.equal(fs.readFileSync(file("new.txt"), "utf8"), "made by the turn\n");
    await shot("rewind-undone");
    passed++;
  });
});

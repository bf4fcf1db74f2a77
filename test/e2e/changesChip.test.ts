// @changes on a real git repository (issue 29 item 3) in a real workbench with Hearth's .vsix, Git
// turned on and a scripted model: a committed file changed and not staged, a new file staged, one
// untracked. Picked from the @ menu, @changes becomes a chip; sent, the model is shown exactly the text
// `git diff --cached`, `git diff` and the untracked list make here (the built-in Git extension's API
// runs the same git), which the script checks. Screenshots in test/e2e/.runs/changesChip-*.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { changesText } from "../../extension/context/editorContextText.js";
import { composeMessage } from "../../shared/attachmentText.js";
import { newScenario } from "./support/scenario.js";
import { openChat, scriptedModel, sendChat, turnEnds } from "./support/scriptedChat.js";
import { pickFromAtMenu, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

describe("@changes on a real git repository (issue 29 item 3)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, page, shot, end } = newScenario("changesChip", "hearth-e2e-changes-");
  let passed = 0;
  const view = () => webviewViewFrame(page(), EXTENSION_ID);

  before(async () => {
    fs.mkdirSync(workspace);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Hearth Test", "-c", "user.email=test@hearth.invalid", ...args], {
        cwd: workspace,
        encoding: "utf8",
      });
    git("init", "-q", "-b", "main");
    fs.writeFileSync(path.join(workspace, "calc.ts"), "export const rate = 1;\nexport const name = 'calc';\n");
    git("add", "calc.ts");
    git("commit", "-q", "-m", "first");
    fs.writeFileSync(path.join(workspace, "calc.ts"), "export const rate = 2;\nexport const name = 'calc';\n");
    fs.writeFileSync(path.join(workspace, "notes.md"), "# Notes\n");
    git("add", "notes.md");
    fs.writeFileSync(path.join(workspace, "todo.txt"), "later\n");
    // What the model must be shown: the same git's diffs, in the chip's text.
    const content = changesText(".", { staged: git("diff", "--cached"), unstaged: git("diff"), untracked: ["todo.txt"] });
    const expected = composeMessage("Review these", [{ attachment: { kind: "changes", path: ".", content }, text: content }]);
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(script, JSON.stringify({ rounds: [{ text: ["The rate went from 1 to 2."], expectUsers: [expected] }] }));
    const model = scriptedModel(script);
    await openChat(started, { scratch, workspace, env: model.env, settings: { ...model.settings, "git.enabled": true } });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 1));

  it("@changes attaches the staged and unstaged diffs and the untracked files, and the model is shown exactly that text", async () => {
    await pickFromAtMenu(page(), view(), "Review these @", "@changes", "the working tree's diff");
    const chip = view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]').first();
    await chip.waitFor({ state: "visible", timeout: 30_000 });
    assert.equal(await chip.getAttribute("data-kind"), "changes");
    assert.equal(await chip.locator(".chip-label").textContent(), "changes: .");
    await shot("a-changes-chip-before-send");

    await sendChat(page(), EXTENSION_ID, "Review these");
    // The script fails the turn unless the model is shown the typed text and the diffs exactly.
    assert.equal(
      await turnEnds(page(), EXTENSION_ID, 1),
      "completed",
      (await view().locator('[data-testid="turn-status"]').first().textContent()) ?? "",
    );
    await view().locator('[data-testid="assistant-message"]').filter({ hasText: "The rate went from 1 to 2." }).waitFor();
    const sent = view().locator('[data-testid="user-message"]').last();
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), ["changes: ."]);
    await shot("b-changes-sent-and-answered");
    passed++;
  });
});

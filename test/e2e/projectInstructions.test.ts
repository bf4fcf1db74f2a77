// Project instructions in a real workbench (issue 27, item 1 done-when): a workspace with an AGENTS.md
// and a .clinerules file; the chat names both with their token cost above the message box, both reach
// the model (the scripted round fails the turn unless its system instructions hold them), and the
// switch of .clinerules takes it out of the next turn (that round fails if it is still there).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, webviewViewFrame } from "./support/webview.js";
import { scriptedModel, sendChat, startWorkbench, turnEnds } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const AGENTS = "Run `npm run check` before you answer.";
const CLINE = "Never edit files under vendor/.";

describe("project instructions in a real VS Code workbench (issue 27)", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("projectInstructions", "hearth-e2e-instructions-");
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "AGENTS.md"), `${AGENTS}\n`);
    fs.writeFileSync(path.join(workspace, ".clinerules"), `${CLINE}\n`);
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        rounds: [
          { expectSystemIncludes: [AGENTS, CLINE], text: ["I will follow both."] },
          { expectSystemIncludes: [AGENTS], expectSystemExcludes: [CLINE], text: ["Only AGENTS.md now."] },
        ],
      }),
    );
    const model = scriptedModel(script, { HEARTH_HOME: path.join(scratch, "hearth") });
    await startWorkbench(started, { scratch, workspace, ...model });
  });

  after(async () => {
    await end(passed);
  });

  it("names both files with their cost, both reach the model, and a file switched off is gone from the next turn", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const summary = view.locator('[data-testid="instructions-summary"]');
    await summary.waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await summary.textContent()) ?? "", /^Instructions: AGENTS\.md, \.clinerules · ~\d+ tokens$/);

    await sendChat(page, EXTENSION_ID, "hello");
    assert.equal(await turnEnds(page, EXTENSION_ID, 1), "completed", "the first round was shown both files");
    await summary.click();
    await view.locator('[data-testid="instructions-item"]').nth(1).waitFor({ state: "visible", timeout: 10_000 });
    await shot("instructions-open");

    await view.locator('input[data-path=".clinerules"]').click();
    await view.locator('[data-testid="instructions-summary"]', { hasText: /^Instructions: AGENTS\.md · ~\d+ tokens$/ }).waitFor({
      state: "visible",
      timeout: 30_000,
    });
    assert.match((await view.locator('[data-testid="instructions-item"]').nth(1).textContent()) ?? "", /\.clinerules\s*off/);
    await sendChat(page, EXTENSION_ID, "and now?");
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed", "the second round was not shown .clinerules");
    await shot("instructions-switched-off");
    passed = true;
  });
});

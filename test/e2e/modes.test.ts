// Modes and slash commands in a real workbench (issue 27, items 2 and 3): typing `/` lists the
// commands; `/mode plan` (picked from the list with the keyboard) switches the picker; the Plan turn
// is offered read-only tools and the Plan instructions (the scripted round fails the turn otherwise);
// "Implement this plan" puts the plan in the box and switches to Code, and the next turn is the same
// session in Code mode with the plan in its message.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { implementPlanMessage } from "../../shared/implementPlan.js";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, waitFor, webviewViewFrame } from "./support/webview.js";
import { scriptedModel, startWorkbench, turnEnds } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const PLAN = "- [ ] add a failing test\n- [ ] fix parse()";

describe("modes and slash commands in a real VS Code workbench (issue 27)", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("modes", "hearth-e2e-modes-");
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        rounds: [
          { expectTools: ["list_dir", "read_file", "search_files"], expectSystemIncludes: ["# Mode: Plan"], text: [PLAN] },
          { expectUsers: ["fix the parser", implementPlanMessage(PLAN)], expectSystemExcludes: ["# Mode: Plan"], text: ["Implemented."] },
        ],
      }),
    );
    const model = scriptedModel(script, { HEARTH_HOME: path.join(scratch, "hearth") });
    await startWorkbench(started, { scratch, workspace, ...model });
  });

  after(async () => {
    await end(passed);
  });

  it("/mode plan from the list, a Plan turn with read-only tools, then Implement this plan in Code mode", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const box = view.locator("#message textarea");
    const select = view.locator('[data-testid="mode-select"]');
    await select.waitFor({ state: "visible", timeout: 60_000 });
    await view.locator('[data-testid="mode-select"] option[value="plan"]').waitFor({ state: "attached", timeout: 30_000 });

    await box.fill("/mo", { timeout: 60_000 });
    const menu = view.locator('[data-testid="slash-menu"]');
    await menu.waitFor({ state: "visible", timeout: 10_000 });
    assert.deepEqual(await view.locator('[data-testid="slash-item"] .slash-name').allTextContents(), ["/mode NAME"]);
    await box.fill("/");
    await box.press("ArrowDown");
    await shot("slash-menu");
    await box.fill("/mo");
    // The list filters as the box changes: Enter picks what is highlighted once it is the only match
    // (the list of "/" may still be shown, "/mode" highlighted in it, for a moment after the fill).
    const items = view.locator('[data-testid="slash-item"]');
    await waitFor(
      async () => (await items.count()) === 1 && ((await items.first().getAttribute("class")) ?? "").includes("active"),
      10_000,
      "the list filtered to /mode alone",
    );
    await box.press("Enter");
    assert.equal(await box.inputValue(), "/mode ");
    await page.keyboard.type("plan");
    await box.press("Enter");
    await view.locator('[data-testid="mode-picker"][data-mode="plan"]').waitFor({ state: "attached", timeout: 10_000 });

    await box.fill("fix the parser");
    await box.press("Enter");
    assert.equal(
      await turnEnds(page, EXTENSION_ID, 1),
      "completed",
      "the Plan round was offered read-only tools and the Plan instructions",
    );
    const implement = view.locator('[data-testid="implement-plan"]');
    await implement.waitFor({ state: "visible", timeout: 10_000 });
    await shot("plan-answer");
    await implement.click();
    assert.equal(await box.inputValue(), implementPlanMessage(PLAN));
    assert.equal(await select.inputValue(), "code");
    await shot("implement-in-box");
    await box.press("Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed", "the same session, in Code mode, with the plan in the message");
    await shot("implemented");
    passed = true;
  });
});

// A rule written from an approval card in a real workbench (issue 27, item 4 done-when): a shell call
// asks on its card with "Always allow touch made.txt in this folder" (the command drawn as code); pressing it runs the call and
// writes exactly that rule to .hearth/rules.json; the same command in the next message runs without
// a card, and each live tool card says who decided (the person on the card, then the rule).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, webviewViewFrame } from "./support/webview.js";
import { scriptedModel, sendChat, startWorkbench, turnEnds } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const COMMAND = "touch made.txt";

describe("Always allow from an approval card in a real VS Code workbench (issue 27)", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("alwaysAllow", "hearth-e2e-always-");
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    const shell = { toolCalls: [{ name: "shell", arguments: { command: COMMAND } }] };
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(script, JSON.stringify({ rounds: [shell, { text: ["Made."] }, shell, { text: ["Made again."] }] }));
    await startWorkbench(started, { scratch, workspace, ...scriptedModel(script, { HEARTH_HOME: path.join(scratch, "hearth") }) });
  });

  after(async () => {
    await end(passed);
  });

  it("the card's Always allow writes the exact rule, and the next message's same command runs without asking", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    await sendChat(page, EXTENSION_ID, "make the file");
    const card = view.locator('[data-testid="approval-card"][data-state="pending"]');
    await card.waitFor({ state: "visible", timeout: 60_000 });
    const always = card.locator('[data-testid="approval-always"]');
    assert.equal((await always.textContent())?.trim(), `Always allow ${COMMAND} in this folder`);
    await shot("a-card-always-allow");
    await always.click();
    assert.equal(await turnEnds(page, EXTENSION_ID, 1), "completed");
    assert.ok(fs.existsSync(path.join(workspace, "made.txt")), "the approved call ran");
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(workspace, ".hearth", "rules.json"), "utf8")), {
      rules: [{ tool: "shell", command: COMMAND, decision: "allow" }],
    });

    fs.rmSync(path.join(workspace, "made.txt"));
    await sendChat(page, EXTENSION_ID, "make it again");
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed");
    assert.ok(fs.existsSync(path.join(workspace, "made.txt")), "the rule let the same command run");
    assert.equal(await view.locator('[data-testid="approval-card"]').count(), 1, "the second call asked nobody: no second card");
    // The live cards say who decided, as the journal does, without the transcript being read again.
    const decisions = view.locator('[data-testid="tool-decision"]');
    await decisions.nth(1).waitFor({ state: "visible", timeout: 10_000 });
    assert.match((await decisions.nth(0).textContent()) ?? "", /^Approved in VS Code, on this card, at /);
    assert.match((await decisions.nth(1).textContent()) ?? "", /^Approved by rule .*touch made\.txt.*, at /);
    await shot("b-second-run-unasked");
    passed = true;
  });
});

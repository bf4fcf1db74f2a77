// Workspace Trust in a real workbench (issue 10, item 6; done-when (c)): in Restricted Mode the
// installed Hearth activates (limited support), its view says what it will not do and why, and the
// model is offered read-only tools only (the scripted round fails the turn if it is offered any
// other). Trusting the folder from the view's button lifts it without a reload: the banner goes
// and the next turn of the same chat is offered every tool. Apply on a code block is refused meanwhile,
// and a background task started meanwhile is read-only, as the Tasks view says (issue 24).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, runCommand, webviewViewFrame } from "./support/webview.js";
import { startWorkbench, sendChat } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const READ_ONLY = ["list_dir", "read_file", "search_files"];

describe("Restricted Mode in a real VS Code workbench", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("restrictedMode", "hearth-e2e-trust-");
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "README.md"), "# untrusted\n");
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        rounds: [
          { expectTools: READ_ONLY, text: ["I can read this folder, but not change it.\n\n```md README.md\n# changed\n```\n"] },
          { expectTools: [...READ_ONLY, "delegate_task", "edit_file", "shell", "write_file"], text: ["Now I could write too."] },
        ],
      }),
    );
    await startWorkbench(started, {
      scratch,
      workspace,
      workspaceTrust: "untrusted",
      settings: { "hearth.model": `scripted:${script}` },
      env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_HOME: path.join(scratch, "hearth") },
    });
  });

  after(async () => {
    if (started.browser && passed) await shot("trusted").catch(() => undefined);
    await end(passed);
  });

  it("the view says why, turns get read-only tools, and trusting the folder lifts it without a reload", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const banner = view.locator('[data-testid="restricted-mode"]');
    await banner.waitFor({ state: "visible", timeout: 60_000 });
    assert.match(
      (await banner.textContent()) ?? "",
      /Restricted Mode.*only reads, lists and searches.*will not write or edit files, run commands or use the network/s,
    );
    const status = view.locator('[data-testid="turn-status"]');
    await sendChat(page, EXTENSION_ID, "what can you do here?");
    await status.first().waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(
      await status.first().getAttribute("data-status"),
      "completed",
      `the read-only turn reads: ${await status.first().textContent()}`,
    );
    await shot("restricted");
    // Apply on a code block (issue 15) is refused here before the kernel is asked, saying how to lift it.
    await view.locator('[data-testid="code-apply"]').first().click();
    const refusal = view.locator(".notice", { hasText: "Apply to file was refused" });
    await refusal.waitFor({ state: "visible", timeout: 15_000 });
    assert.match(
      (await refusal.textContent()) ?? "",
      /Restricted Mode \(not trusted\), where Hearth may not write files\. Trust the folder/,
    );
    assert.equal(fs.readFileSync(path.join(workspace, "README.md"), "utf8"), "# untrusted\n", "nothing was written");
    await refusal.scrollIntoViewIfNeeded();
    await shot("apply-refused-restricted");

    // issue 24: "Start Background Task…" here starts a read-only task (the script's round fails it
    // if it is offered any other tool), and the Tasks view says so.
    const header = page.locator('.pane-header[aria-label^="Tasks"]').first();
    await header.waitFor({ state: "visible", timeout: 30_000 });
    if ((await header.getAttribute("aria-expanded")) === "false") await header.click();
    await runCommand(page, "Hearth: Start Background Task…");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill("Look around this folder");
    await page.keyboard.press("Enter");
    const task = page.locator('.monaco-list-row[aria-label="Look around this folder, completed"]');
    await task.waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await task.textContent()) ?? "", /read-only \(Restricted Mode\)/, "the Tasks view says the task is read-only and why");
    await shot("task-read-only-restricted");

    await banner.getByRole("button", { name: "Manage Workspace Trust" }).click();
    const trust = page.locator(".workspace-trust-editor");
    await trust.waitFor({ state: "visible", timeout: 30_000 });
    await trust
      .getByRole("button", { name: /^Trust/ })
      .first()
      .click();
    await banner.waitFor({ state: "hidden", timeout: 30_000 });

    await sendChat(page, EXTENSION_ID, "and now?");
    await status.nth(1).waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(
      await status.nth(1).getAttribute("data-status"),
      "completed",
      `the trusted turn reads: ${await status.nth(1).textContent()}`,
    );
    passed = true;
  });
});

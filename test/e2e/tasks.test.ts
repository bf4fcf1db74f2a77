// Background tasks in a real workbench (issue 12 items 4-5, e2e (a), (c), (d)): a task started
// with "Hearth: Start Background Task…" runs in the Tasks view while a chat turn runs; its write
// asks by a notification (no modal, no focus taken) and is allowed from there, so the file lands
// on disk and the task completes; `hearth tasks --json` from the installed extension's CLI lists
// the same task. The scripted model's delays keep the task running long enough to be seen.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { runInstalledCli } from "./support/installedCli.js";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, runCommand, waitFor, webviewViewFrame } from "./support/webview.js";
import { sharedKernelFolders, startSharedKernelWorkbench, openChatView, sendChat } from "./support/scriptedChat.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const INSTRUCTION = "Write the task notes into notes.txt please";
const TITLE = "Write the task notes into notes.txt please";
const NOTES = "notes written by a background task\n";
// Every session starts at round 0 (the scripted model counts a session's assistant messages), so
// the chat turn asks for the same write: it is answered in the file (Reject), the task's by its notification.
const SCRIPT = {
  rounds: [
    {
      text: ["Working ", "on ", "the ", "notes, ", "slowly. "],
      delayMs: 900,
      toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: NOTES } }],
    },
    { text: ["Done: ", "notes.txt ", "is written."], delayMs: 600 },
  ],
};

describe("background tasks in the workbench (issue 12: Tasks view, notification approvals, the CLI sees the same task)", {
  timeout: 240_000,
}, () => {
  const { runDir, scratch, workspace, clock, started: workbench, shot, end } = newScenario("tasks", "hearth-e2e-tasks-");
  const { home, profileDir } = sharedKernelFolders(scratch);
  let passed = false;

  const taskRow = (state: string) => workbench.browser!.page.locator(`.monaco-list-row[aria-label="${TITLE}, ${state}"]`);

  before(() =>
    startSharedKernelWorkbench(workbench, { scratch, workspace, scriptName: "task-script.json", script: SCRIPT, mark: clock.mark }),
  );

  after(() => end(passed));

  it("(a)+(c) a task started from the command runs beside a chat turn; its write is allowed from a non-modal notification, lands on disk and the task completes in the Tasks view", async () => {
    const page = workbench.browser!.page;
    const chat = await openChatView(page, EXTENSION_ID);
    // The Tasks view sits below the chat in the Hearth container; expand it if it is collapsed.
    const header = page.locator('.pane-header[aria-label^="Tasks"]').first();
    await header.waitFor({ state: "visible", timeout: 30_000 });
    if ((await header.getAttribute("aria-expanded")) === "false") await header.click();

    await runCommand(page, "Hearth: Start Background Task…");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(INSTRUCTION);
    await page.keyboard.press("Enter");
    clock.mark("task started");
    await sendChat(page, EXTENSION_ID, "Say something while the task runs");
    await taskRow("running").waitFor({ state: "visible", timeout: 30_000 });
    await chat.locator('.composer[data-busy="true"]').waitFor({ state: "attached", timeout: 30_000 });
    clock.mark("task running beside the chat turn");
    await shot("1-task-running-beside-chat");

    const toast = page.locator(".notification-toast").filter({ hasText: `Task "${TITLE}" wants to run write_file on notes.txt` });
    await toast.waitFor({ state: "visible", timeout: 60_000 });
    await taskRow("waiting for approval").waitFor({ state: "visible", timeout: 30_000 });
    clock.mark("task approval notified");
    assert.equal(await page.locator(".monaco-dialog-box").count(), 0, "no modal dialog");
    assert.ok(
      await page.locator(".statusbar-item", { hasText: "1 awaiting approval" }).count(),
      "the status bar counts the approval waiting",
    );
    assert.equal(fs.existsSync(path.join(workspace, "notes.txt")), false, "nothing is written before the person allows it");
    // The Tasks view's badge counts what waits for the person (issue 25 item 3): on the Hearth icon.
    const badges = () =>
      page.locator(".part.activitybar .action-item").evaluateAll((items) =>
        items.map((i) => ({
          label: i.querySelector(".action-label")?.getAttribute("aria-label") ?? "",
          badge: i.querySelector(".badge-content")?.textContent ?? "",
        })),
      );
    await waitFor(
      async () => (await badges()).some((b) => /^Hearth/.test(b.label) && b.badge === "1"),
      10_000,
      "the Hearth icon's badge to count the task waiting",
    ).catch(async (e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(await badges())}`);
    });
    await shot("2-task-approval-notification");

    await toast.locator(".monaco-button", { hasText: /^Allow$/ }).click();
    await waitFor(() => fs.existsSync(path.join(workspace, "notes.txt")), 30_000, "notes.txt on disk");
    assert.equal(fs.readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES);
    await taskRow("completed").waitFor({ state: "visible", timeout: 60_000 });
    clock.mark("task completed in the view");
    const log = readHearthLog(workbench.server!.userDataDir);
    assert.match(
      log,
      /approval: write_file \(idempotent_write\) call \S+ in run \S+ → approve \(allowed from the notification of task "Write the task notes/,
    );

    // The chat's own turn asked for the same write in the file (its round 0); it is answered there.
    const lens = page.locator(".monaco-editor .codelens-decoration a").filter({ hasText: /^Reject$/ });
    await lens.waitFor({ state: "visible", timeout: 60_000 });
    await lens.click();
    const status = chat.locator('[data-testid="turn-status"]');
    await status.waitFor({ state: "attached", timeout: 60_000 });
    assert.equal(await status.getAttribute("data-status"), "completed");
    // Expanded, the task shows its result.
    await taskRow("completed").click();
    await page.keyboard.press("ArrowRight");
    await page
      .locator(".monaco-list-row", { hasText: "Result: Done: notes.txt is written." })
      .waitFor({ state: "visible", timeout: 30_000 });
    await shot("3-task-completed");
    // issue 25 item 11: its transcript opens rendered (a Markdown preview), not as Markdown source.
    await runCommand(page, "Hearth: Open Task Transcript");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: TITLE }).first().click();
    await page.locator(".tabs-container .tab.active", { hasText: "Preview" }).waitFor({ state: "visible", timeout: 30_000 });
    const preview = page
      .frameLocator('iframe.webview.ready[src*="extensionId=vscode.markdown-language-features"]')
      .frameLocator("iframe#active-frame");
    await preview.locator("h1", { hasText: `Task: ${TITLE}` }).waitFor({ state: "visible", timeout: 30_000 });
    await preview.locator("h2", { hasText: "Result" }).waitFor({ state: "visible", timeout: 10_000 });
    await shot("3-task-transcript");
  });

  it("(d) `hearth tasks --json` from the installed extension's CLI lists the same task as the editor", () => {
    const cli = runInstalledCli(
      { profileDir, extensionId: EXTENSION_ID, version: pkg.version },
      ["tasks", "--workspace", workspace, "--json"],
      {
        HEARTH_HOME: home,
      },
    );
    assert.equal(cli.status, 0, cli.stderr);
    fs.writeFileSync(path.join(runDir, "hearth-tasks.json"), cli.stdout);
    const { tasks } = JSON.parse(cli.stdout) as { tasks: { taskId: string; title: string; state: string }[] };
    const started = /tasks: started task (\S+) "/.exec(readHearthLog(workbench.server!.userDataDir));
    assert.ok(started, "the editor logged the task it started");
    assert.deepEqual(
      tasks.map((t) => [t.taskId, t.title, t.state]),
      [[started[1], TITLE, "completed"]],
    );
  });

  it('"Run in background" in the chat starts the message as a task the Tasks view lists (issue 12 item 5)', async () => {
    const page = workbench.browser!.page;
    const chat = webviewViewFrame(page, EXTENSION_ID);
    await chat.locator("#message textarea").fill("Summarize the README in the background", { timeout: 30_000 });
    await chat.locator("#run-in-background").click();
    await waitFor(
      () => /tasks: started task \S+ "Summarize the README in the background"/.test(readHearthLog(workbench.server!.userDataDir)),
      30_000,
      "the chat's message started as a task",
    );
    await page.locator(".monaco-list-row", { hasText: "Summarize the README in the background" }).first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.locator("#message textarea").inputValue(), "", "the message left the box: it is a task now, not a chat turn");
    await shot("4-run-in-background");

    // (b) A window reload while the task runs (it waits for its write's approval): the kernel keeps
    // it, and the reloaded window's Tasks view shows it again from the kernel.
    await page.reload({ timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench .part.activitybar", { timeout: 60_000 });
    // In the side bar: the task's approval notification is a list row with the same words.
    const row = page.locator(".part.sidebar .monaco-list-row", { hasText: "Summarize the README in the background" }).first();
    const visible = await row.waitFor({ timeout: 20_000 }).then(
      () => true,
      () => false,
    );
    if (!visible) await openActivityBarContainer(page, "Hearth");
    await row.waitFor({ timeout: 60_000 });
    assert.match((await row.getAttribute("aria-label")) ?? "", /running|waiting for approval|queued/, "still in progress after the reload");
    await shot("5-after-reload");
    passed = true;
  });
});

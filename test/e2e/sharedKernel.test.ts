// One kernel per folder that outlives the window (issue 12, item 2), in a real workbench with Hearth
// installed from its .vsix: the chat view's kernel is the folder's shared, detached kernel, so
// `hearth sessions` run with the installed extension's own CLI joins it and lists the editor's chat
// while its turn runs; and a window reload mid-turn leaves the turn running in the kernel, the
// reloaded window joins the same kernel and its view follows the turn to its end.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { runInstalledCli } from "./support/installedCli.js";
import { newScenario } from "./support/scenario.js";
import { defaultJournalPath, journalLockPath } from "../../shared/node/paths.js";
import type { FrameLocator } from "./support/playwright.js";
import { openActivityBarContainer, waitFor, webviewViewFrame } from "./support/webview.js";
import { sharedKernelFolders, startSharedKernelWorkbench, openChatView, sendChat } from "./support/scriptedChat.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
// One slow round: long enough (≈ 15 s) to run the CLI and reload the window while it streams.
const DELTAS = Array.from({ length: 30 }, (_, i) => `${i + 1} `);
const MESSAGE = "Count to thirty, slowly";

/** The chat's answer text so far, all its answer blocks together. */
const answerText = async (view: FrameLocator) => (await view.locator('[data-testid="answer"]').allTextContents()).join("");

describe("the folder's kernel is shared and outlives the window (issue 12, item 2) in a real workbench", { timeout: 240_000 }, () => {
  const { runDir, scratch, workspace, clock, started, shot, end } = newScenario("sharedKernel", "hearth-e2e-shared-");
  const { home, profileDir } = sharedKernelFolders(scratch);
  let passed = false;
  let kernelPid = 0;

  const lockPid = () => Number(fs.readFileSync(journalLockPath(defaultJournalPath(workspace, { HEARTH_HOME: home })), "utf8"));

  before(() =>
    startSharedKernelWorkbench(started, {
      scratch,
      workspace,
      scriptName: "slow-count.json",
      script: { rounds: [{ text: DELTAS, delayMs: 500 }] },
      mark: clock.mark,
    }),
  );

  after(() => end(passed));

  it("`hearth sessions` from the installed extension's CLI joins the editor's kernel and lists its chat with the running turn (same journal, nothing reconciled under it)", async () => {
    const page = started.browser!.page;
    const view = await openChatView(page, EXTENSION_ID);
    kernelPid = lockPid();
    await sendChat(page, EXTENSION_ID, MESSAGE);
    await waitFor(async () => (await answerText(view)).length > 0, 30_000, "the answer to start streaming");
    clock.mark("turn streaming");
    await shot("1-turn-streaming");

    const cli = runInstalledCli(
      { profileDir, extensionId: EXTENSION_ID, version: pkg.version },
      ["sessions", "--workspace", workspace, "--json"],
      {
        HEARTH_HOME: home,
        HEARTH_DEBUG: "1",
      },
    );
    assert.equal(cli.status, 0, cli.stderr);
    clock.mark("hearth sessions answered");
    assert.match(cli.stderr, new RegExp(`hearth: joined kernel pid ${kernelPid} `), "the CLI joined the editor's kernel");
    const { sessions } = JSON.parse(cli.stdout) as { sessions: { title: string; activeTurnId: string | null }[] };
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.title, MESSAGE, "the terminal lists the chat the editor made");
    assert.ok(sessions[0]!.activeTurnId, "with its turn running");
    fs.writeFileSync(path.join(runDir, "hearth-sessions.json"), cli.stdout);
  });

  it("a window reload mid-turn: the turn keeps running in the kernel, the reloaded window joins it and the view follows the turn to completion", async () => {
    const page = started.browser!.page;
    const streamedBefore = await answerText(webviewViewFrame(page, EXTENSION_ID));
    assert.ok(streamedBefore.length < DELTAS.join("").length, "the turn is still running at the reload");
    await page.reload({ timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench .part.activitybar", { timeout: 60_000 });
    clock.mark("window reloaded");
    const view = webviewViewFrame(page, EXTENSION_ID);
    // The Hearth container stays open across a reload in most layouts; open it if it did not.
    const shown = await view
      .locator('[data-testid="transcript"]')
      .waitFor({ state: "attached", timeout: 20_000 })
      .then(
        () => true,
        () => false,
      );
    if (!shown) await openActivityBarContainer(page, "Hearth");
    // Following: the view shows the turn as running (the composer busy) and the answer grows.
    await view.locator('.composer[data-busy="true"]').waitFor({ state: "attached", timeout: 60_000 });
    await waitFor(async () => (await answerText(view)).length > 0, 30_000, "the followed turn's answer in the reloaded view");
    clock.mark("reloaded view follows the turn");
    await shot("2-after-reload-following");
    assert.equal(lockPid(), kernelPid, "the same kernel owns the journal: the reload did not restart it");

    const status = view.locator('[data-testid="turn-status"]');
    await status.waitFor({ state: "attached", timeout: 60_000 });
    clock.mark("followed turn completed");
    assert.equal(await status.getAttribute("data-status"), "completed", `the turn's status reads: ${await status.textContent()}`);
    assert.equal(
      (await answerText(view)).trim(),
      // Rendered as markdown: the answer's trailing space is not part of the text shown.
      DELTAS.join("").trim(),
      "the whole answer, including what streamed before the reload",
    );
    assert.deepEqual(await view.locator('[data-testid="user-message"] .body').allTextContents(), [MESSAGE]);
    await shot("3-followed-turn-completed");

    const log = readHearthLog(started.server!.userDataDir);
    assert.match(log, new RegExp(`started kernel pid ${kernelPid}`), "the first window started the kernel");
    assert.match(log, new RegExp(`joined kernel pid ${kernelPid}`), "the reloaded window joined it");
    assert.match(log, /chat: following turn \S+, which runs in the kernel \([1-9]\d* events so far\)/);
    assert.match(log, /chat: turn \S+ completed/);
    assert.doesNotMatch(log, /exited unexpectedly|closed unexpectedly|did not start/);
    passed = true;
  });
});

// The whole chain in a real workbench: VS Code (code-server) installs Hearth's .vsix and activates
// it, the chat view starts the kernel on the Node runtime the .vsix ships (its natives are built for
// Node 20 while the extension host runs Node 24, and the PATH has no Node), and the webview shows
// the kernel's initialize answer. Then a person
// chats: a scripted model (test/fixtures/scripts/chat-read-then-write.json) reads a file without
// asking and writes one after the person accepts it with the code lens over the pending new file.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { newScenario } from "./support/scenario.js";
import { lens as lensOf, scriptedModel, startWorkbench, sendChat } from "./support/scriptedChat.js";
import { openActivityBarContainer, runCommand, waitFor, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; publisher: string; name: string };
const buildInfo = JSON.parse(fs.readFileSync(path.join(ROOT, "dist", "build-info.json"), "utf8")) as { nodeVersion: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/chat-read-then-write.json");
const EXPECTED_ANSWER = "Reading README.md.It is a workspace for the e2e. Saving a summary.Done: summary.txt is written.";

describe("Hearth in a real VS Code workbench (code-server + headless Chromium)", { timeout: 180_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("chatView", "hearth-e2e-");
  let passed = false;

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "README.md"), "# a workspace for Hearth's e2e\n");
    await startWorkbench(started, {
      scratch,
      workspace,
      ...scriptedModel(SCRIPT),
      mark: clock.mark,
    });
  });

  after(async () => {
    if (started.browser && passed) await shot("chat-view").catch(() => undefined);
    await end(passed);
  });

  it("the chat view's Kernel menu shows the kernel's version and workspace from initialize (issue 2: extension → kernel → webview is real)", async (t) => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    // Issue 15: the header says what matters (the model); the kernel's details are under its menu.
    await view.locator('[data-testid="kernel-menu"] > summary').click({ timeout: 60_000 });
    await view.locator('[data-testid="kernel-version"]').waitFor({ state: "visible", timeout: 60_000 });
    const version = await view.locator('[data-testid="kernel-version"]').textContent({ timeout: 60_000 });
    clock.mark("kernel version shown");
    assert.equal(version, pkg.version);
    assert.equal(await view.locator('[data-testid="workspace-root"]').textContent(), fs.realpathSync(workspace));
    await view.locator('[data-testid="kernel-menu"] > summary').click();

    // The extension host runs Node 24; the kernel runs on the Node 20 the installed .vsix ships.
    const log = readHearthLog(started.server!.userDataDir);
    assert.match(
      log,
      new RegExp(
        `kernel starting: pid \\d+, Node ${buildInfo.nodeVersion} \\(ABI \\d+\\) at \\S+/extensions/${EXTENSION_ID}-${pkg.version}\\S*/runtime/bin/node \\(from bundled\\)`,
      ),
    );
    assert.match(log, new RegExp(`kernel ${pkg.version.replace(/\./g, "\\.")} ready in \\d+ ms`));
    const activation = /activated in ([\d.]+) ms \(VS Code ([^,]+), extension host Node (v\d+)/.exec(log);
    assert.ok(activation, `the Hearth log records the activation time; it reads:\n${log}`);
    t.diagnostic(
      `activation ${activation[1]} ms (VS Code ${activation[2]}, extension host ${activation[3]}); marks ${JSON.stringify(clock.marks)}`,
    );
  });

  it("a message runs a turn: the answer streams into the view, a read needs no approval, a write is accepted in the editor and lands on disk, a rejected one is denied (harness #8)", async (t) => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await sendChat(page, EXTENSION_ID, "Summarize README.md into summary.txt");
    clock.mark("message sent");

    // write_file asks; read_file (the round before) did not: the new file opens as a pending new
    // file with its lenses (issue 14: in the editor, no modal dialog).
    const lens = (title: string) => lensOf(page, title);
    await lens("Accept (new file)").waitFor({ state: "visible", timeout: 60_000 });
    clock.mark("edit lenses shown");
    assert.match(
      (await page.locator(".tabs-container .tab.active").first().textContent()) ?? "",
      /summary\.txt/,
      "the pending file names its target",
    );
    assert.ok(
      (await page.locator(".monaco-editor .view-line").allTextContents()).some(
        (l) => l.replace(/\u00a0/g, " ") === "README: a workspace for Hearth's e2e",
      ),
      "the pending file shows the proposed content",
    );
    assert.equal(await page.locator(".monaco-dialog-box").count(), 0, "no modal dialog");
    assert.equal(fs.existsSync(path.join(workspace, "summary.txt")), false, "nothing is written before the person accepts it");
    // Show diff opens the proposed content beside the file as it is (new: empty) in its own tab; it
    // does not answer. The pending file with its lenses stays open in the tab beside it.
    await lens("Show diff").click();
    await page.locator(".monaco-diff-editor").first().waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await page.locator(".tabs-container .tab.active").first().textContent()) ?? "", /summary\.txt \(proposed by Hearth\)/);
    await page.locator(".tabs-container .tab").first().click(); // the pending file's tab, beside the diff's
    await lens("Accept (new file)").click({ timeout: 30_000 });

    const status = view.locator('[data-testid="turn-status"]');
    await status.waitFor({ state: "attached", timeout: 60_000 });
    clock.mark("turn completed in the view");
    assert.equal(await status.getAttribute("data-status"), "completed", `the turn's status reads: ${await status.textContent()}`);
    assert.equal((await view.locator('[data-testid="answer"]').allTextContents()).join(""), EXPECTED_ANSWER);
    assert.deepEqual(await view.locator('[data-testid="user-message"] .body').allTextContents(), ["Summarize README.md into summary.txt"]);
    assert.deepEqual(
      await view.locator("details.reasoning").evaluateAll((nodes) => nodes.map((n) => [(n as HTMLDetailsElement).open, n.textContent])),
      [[false, "ReasoningThe person wants a summary saved."]],
      "reasoning streams into one folded block",
    );
    const calls = view.locator('[data-testid="tool-call"]');
    assert.deepEqual(
      [await calls.nth(0).getAttribute("data-tool"), await calls.nth(1).getAttribute("data-tool")],
      ["read_file", "write_file"],
    );
    assert.deepEqual(
      await view.locator('[data-testid="tool-result"]').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.ok)),
      ["true", "true"],
    );
    assert.equal(fs.readFileSync(path.join(workspace, "summary.txt"), "utf8"), "README: a workspace for Hearth's e2e\n");

    const log = readHearthLog(started.server!.userDataDir);
    assert.match(
      log,
      /approval: write_file \(idempotent_write\) call \S+ in run \S+ → approve \(accepted in the editor: the proposed change to summary\.txt as shown \(1 hunk\)\)/,
    );
    assert.doesNotMatch(log, /approval: read_file/, "a read asks no one");
    assert.equal((log.match(/approval: /g) ?? []).length, 1, "exactly one decision for the one request (Show diff does not answer)");

    // Reloaded, the view asks again and shows the session's committed history (from workspaceState's
    // session id and session/history, not from the page it had).
    await runCommand(page, "Developer: Reload Webviews");
    // data-history-messages counts the committed messages the view last loaded (0: a new chat).
    await view
      .locator('[data-testid="transcript"][data-history-messages]:not([data-history-messages="0"])')
      .waitFor({ state: "attached", timeout: 30_000 })
      .catch(async (e: Error) => {
        throw new Error(
          `${e.message}\n(${await page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).count()} Hearth webview frames in the page)`,
        );
      });
    assert.equal(
      (await view.locator('[data-testid="answer"]').allTextContents()).join(""),
      EXPECTED_ANSWER,
      "history holds what was streamed (harness #3)",
    );
    clock.mark("history shown after the view reloaded");

    // The second message continues the remembered session; Reject denies.
    await sendChat(page, EXTENSION_ID, "Save notes.txt too");
    await lens("Reject").waitFor({ state: "visible", timeout: 60_000 });
    // A code lens can be redrawn between being found and being clicked (a clean-clone run once
    // clicked one that no longer ran its command): click until the proposal's lenses go away.
    // A second click of an answered proposal changes nothing (one answer per request).
    for (let attempt = 0; attempt < 6 && (await lens("Reject").count()) > 0; attempt++) {
      await lens("Reject")
        .first()
        .click({ timeout: 10_000 })
        .catch(() => undefined);
      await lens("Reject")
        .first()
        .waitFor({ state: "detached", timeout: 5_000 })
        .catch(() => undefined);
    }
    await status.waitFor({ state: "attached", timeout: 60_000 });
    clock.mark("second turn completed after a rejected proposal");
    assert.equal(await status.getAttribute("data-status"), "completed", `the turn's status reads: ${await status.textContent()}`);
    assert.equal(fs.existsSync(path.join(workspace, "notes.txt")), false, "a rejected proposal writes nothing");
    assert.match((await view.locator('[data-testid="answer"]').allTextContents()).join(""), /Not written: you said no\.$/);
    assert.match(
      readHearthLog(started.server!.userDataDir),
      /approval: write_file \(idempotent_write\) call \S+ in run \S+ → deny \(the person rejected the proposed change to notes\.txt in the editor; nothing was written\)/,
    );
    assert.equal(
      (await view.locator('[data-testid="user-message"] .body').allTextContents()).length,
      2,
      "one session: the first message from history, the second live",
    );
    t.diagnostic(`marks ${JSON.stringify(clock.marks)}`);
  });

  it("the chat view runs under its strict CSP without a violation (nonce-only scripts and inline styles)", () => {
    const ours = started.browser!.consoleErrors.filter((e) => e.includes("Content Security Policy") && e.includes(`/${EXTENSION_ID}-`));
    assert.deepEqual(ours, []);
  });

  it("the Restart button restarts the kernel and the view shows the new kernel's answer", async () => {
    const view = webviewViewFrame(started.browser!.page, EXTENSION_ID);
    // Restart lives in the Kernel menu (issue 15).
    await view.locator('[data-testid="kernel-menu"] > summary').click();
    await view.locator("#restart").click();
    await waitFor(
      () => (readHearthLog(started.server!.userDataDir).match(/kernel \S+ ready in/g) ?? []).length === 2,
      30_000,
      "a second 'kernel ready' in the Hearth log",
    );
    const log = readHearthLog(started.server!.userDataDir);
    assert.match(log, /restart requested[\s\S]*kernel \(pid \d+\) stopped[\s\S]*kernel starting/);
    await view.locator('[data-testid="kernel-ready"]').waitFor({ state: "attached", timeout: 30_000 });
    assert.equal(await view.locator('[data-testid="kernel-version"]').textContent({ timeout: 30_000 }), pkg.version);
    clock.mark("kernel restarted from the view");
    passed = true;
  });
});

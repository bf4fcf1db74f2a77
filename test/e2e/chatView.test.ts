// The whole chain in a real workbench: VS Code (code-server) activates Hearth, the chat view
// starts the kernel under the Node recorded at build (its natives are built for Node 20 while the
// extension host runs Node 24), and the webview shows the kernel's initialize answer.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { launchBrowser, openWorkbench, type Browser } from "./support/browser.js";
import { readHearthLog, startCodeServer, type CodeServer } from "./support/codeServer.js";
import { newRunDir, stopwatch } from "./support/runDir.js";
import { findTools } from "./support/tools.js";
import { openActivityBarContainer, waitFor, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; publisher: string; name: string };
const buildInfo = JSON.parse(fs.readFileSync(path.join(ROOT, "dist", "build-info.json"), "utf8")) as { nodePath: string; nodeVersion: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

describe("Hearth in a real VS Code workbench (code-server + headless Chromium)", { timeout: 180_000 }, () => {
  const runDir = newRunDir("chatView");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-e2e-"));
  const workspace = path.join(scratch, "workspace");
  const clock = stopwatch();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let passed = false;

  before(async () => {
    const tools = findTools();
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "README.md"), "# a workspace for Hearth's e2e\n");
    server = await startCodeServer({ tools, profileDir: path.join(scratch, "profile"), extensionRoot: ROOT, workspace });
    clock.mark("code-server healthy");
    browser = await launchBrowser(tools, path.join(scratch, "browser"));
    clock.mark("chromium launched");
    await openWorkbench(browser.page, server.workbenchUrl);
    clock.mark("workbench rendered");
  });

  after(async () => {
    const page = browser?.page;
    if (page) await page.screenshot({ path: path.join(runDir, passed ? "chat-view.png" : "failure.png") }).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (server) {
      fs.writeFileSync(path.join(runDir, "Hearth.log"), readHearthLog(server.userDataDir));
      fs.copyFileSync(server.logFile, path.join(runDir, "code-server.log"));
    }
    fs.writeFileSync(path.join(runDir, "result.json"), JSON.stringify({ passed, marks: clock.marks, consoleErrors: browser?.consoleErrors ?? [] }, null, 2));
    if (passed) fs.rmSync(scratch, { recursive: true, force: true });
    else console.error(`e2e artifacts: ${runDir} (workbench profile kept in ${scratch})`);
  });

  it("the chat view shows the kernel's version and workspace from initialize (issue 2: extension → kernel → webview is real)", async (t) => {
    const page = browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const version = await view.locator('[data-testid="kernel-version"]').textContent({ timeout: 60_000 });
    clock.mark("kernel version shown");
    assert.equal(version, pkg.version);
    assert.equal(await view.locator('[data-testid="workspace-root"]').textContent(), fs.realpathSync(workspace));

    // The extension host runs Node 24; the kernel must run under the Node that built its natives.
    const log = readHearthLog(server!.userDataDir);
    assert.match(log, new RegExp(`kernel starting: pid \\d+, Node ${buildInfo.nodeVersion} \\(ABI \\d+\\) at ${buildInfo.nodePath} \\(from build\\)`));
    assert.match(log, new RegExp(`kernel ${pkg.version.replace(/\./g, "\\.")} ready in \\d+ ms`));
    const activation = /activated in ([\d.]+) ms \(VS Code ([^,]+), extension host Node (v\d+)/.exec(log);
    assert.ok(activation, `the Hearth log records the activation time; it reads:\n${log}`);
    t.diagnostic(`activation ${activation[1]} ms (VS Code ${activation[2]}, extension host ${activation[3]}); marks ${JSON.stringify(clock.marks)}`);
  });

  it("the chat view runs under its strict CSP without a violation (nonce-only scripts and inline styles)", () => {
    const ours = browser!.consoleErrors.filter((e) => e.includes("Content Security Policy") && e.includes(`/${EXTENSION_ID}-`));
    assert.deepEqual(ours, []);
  });

  it("the Restart button restarts the kernel and the view shows the new kernel's answer", async () => {
    const view = webviewViewFrame(browser!.page, EXTENSION_ID);
    await view.locator("#restart").click();
    await waitFor(() => (readHearthLog(server!.userDataDir).match(/kernel \S+ ready in/g) ?? []).length === 2, 30_000, "a second 'kernel ready' in the Hearth log");
    const log = readHearthLog(server!.userDataDir);
    assert.match(log, /restart requested[\s\S]*kernel \(pid \d+\) stopped[\s\S]*kernel starting/);
    assert.equal(await view.locator('[data-testid="kernel-version"]').textContent({ timeout: 30_000 }), pkg.version);
    clock.mark("kernel restarted from the view");
    passed = true;
  });
});

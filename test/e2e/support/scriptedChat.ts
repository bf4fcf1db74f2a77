// A scenario's common start on a scripted (or any) model: code-server with Hearth's packaged .vsix on a
// workspace, the browser on the workbench and the Hearth chat view open; then the chat's box, the
// n-th turn's end and the active editor's code lenses, as several scenarios use them.
import path from "node:path";
import { packagedVsix } from "../../support/packagedExtension.js";
import { launchBrowser, openWorkbench, type Browser } from "./browser.js";
import { startCodeServer, type CodeServer } from "./codeServer.js";
import type { Locator, Page } from "./playwright.js";
import { findTools } from "./tools.js";
import { openActivityBarContainer, webviewViewFrame } from "./webview.js";

/**
 * Starts the workbench and opens the chat. `into` is filled as each part starts, so a scenario's
 * `after` can stop what did start when a later step fails.
 */
export async function openScriptedChat(
  into: { server?: CodeServer; browser?: Browser },
  opts: { scratch: string; workspace: string; script: string },
): Promise<void> {
  await openChat(into, {
    scratch: opts.scratch,
    workspace: opts.workspace,
    settings: { "hearth.model": `scripted:${opts.script}` },
    env: { HEARTH_ALLOW_SCRIPTED: "1" },
  });
}

/** As openScriptedChat, on any model: `settings` (with `hearth.model`) and `env` are the workbench's. */
export async function openChat(
  into: { server?: CodeServer; browser?: Browser },
  opts: { scratch: string; workspace: string; settings: Record<string, unknown>; env?: Record<string, string> },
): Promise<void> {
  const tools = findTools();
  into.server = await startCodeServer({
    tools,
    profileDir: path.join(opts.scratch, "profile"),
    vsix: packagedVsix(),
    workspace: opts.workspace,
    settings: opts.settings,
    env: opts.env,
  });
  into.browser = await launchBrowser(tools, path.join(opts.scratch, "browser"));
  await openWorkbench(into.browser.page, into.server.workbenchUrl);
  await openActivityBarContainer(into.browser.page, "Hearth");
}

/** Types a message into the chat's box and sends it. */
export async function sendChat(page: Page, extensionId: string, text: string): Promise<void> {
  const box = webviewViewFrame(page, extensionId).locator("#message textarea");
  await box.fill(text, { timeout: 60_000 });
  await box.press("Enter");
}

/** Waits for the n-th turn status of the chat (1-based) and returns its status. */
export async function turnEnds(page: Page, extensionId: string, n: number): Promise<string | null> {
  const status = webviewViewFrame(page, extensionId)
    .locator('[data-testid="turn-status"]')
    .nth(n - 1);
  await status.waitFor({ state: "attached", timeout: 60_000 });
  return status.getAttribute("data-status");
}

/** A code lens of the active editor, by its exact title. */
export function lens(page: Page, title: string): Locator {
  return page.locator(".monaco-editor .codelens-decoration a").filter({ hasText: new RegExp(`^${title.replace(/[()]/g, "\\$&")}$`) });
}

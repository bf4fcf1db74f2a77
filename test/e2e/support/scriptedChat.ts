// A scenario's common start: code-server with Hearth's packaged .vsix on a workspace and the browser
// on the workbench, with the Hearth chat view open on a scripted (or any) model or not yet opened;
// then the chat's box, the n-th turn's end and the active editor's code lenses, as several
// scenarios use them.
import path from "node:path";
import { packagedVsix } from "../../support/packagedExtension.js";
import { launchBrowser, openWorkbench, type Browser } from "./browser.js";
import { startCodeServer, type CodeServer } from "./codeServer.js";
import type { Locator, Page } from "./playwright.js";
import { findTools } from "./tools.js";
import { openActivityBarContainer, webviewViewFrame } from "./webview.js";

/** What a scenario has started, filled as each part starts, so that its `after` can stop it. */
export interface Started {
  server?: CodeServer;
  browser?: Browser;
}

export interface WorkbenchOptions {
  scratch: string;
  workspace: string;
  /** Workbench settings (`hearth.model` among them), merged over the quiet defaults. */
  settings?: Record<string, unknown>;
  /** code-server's environment, which the extension host and so the kernel inherit (HEARTH_HOME, HOME, …). */
  env?: Record<string, string>;
  /** "untrusted": the folder opens in Restricted Mode. */
  workspaceTrust?: "off" | "untrusted";
  /** The workbench's profile (user data, extensions): `<scratch>/profile` unless given. */
  profileDir?: string;
  /** Told as each part is up: "code-server healthy", "chromium launched", "workbench rendered". */
  mark?: (what: string) => void;
}

/**
 * Starts code-server with Hearth's packaged .vsix on the workspace and the browser on the workbench;
 * the chat view is not opened (the kernel starts when it is). `into` is filled as each part starts,
 * so a scenario's `after` can stop what did start when a later step fails.
 */
export async function startWorkbench(into: Started, opts: WorkbenchOptions): Promise<Page> {
  const tools = findTools();
  into.server = await startCodeServer({
    tools,
    profileDir: opts.profileDir ?? path.join(opts.scratch, "profile"),
    vsix: packagedVsix(),
    workspace: opts.workspace,
    settings: opts.settings,
    env: opts.env,
    workspaceTrust: opts.workspaceTrust,
  });
  opts.mark?.("code-server healthy");
  into.browser = await launchBrowser(tools, path.join(opts.scratch, "browser"));
  opts.mark?.("chromium launched");
  await openWorkbench(into.browser.page, into.server.workbenchUrl);
  opts.mark?.("workbench rendered");
  return into.browser.page;
}

/** Starts the workbench and opens the chat on a scripted model (`script`: its JSON file). */
export async function openScriptedChat(into: Started, opts: { scratch: string; workspace: string; script: string }): Promise<void> {
  await openChat(into, {
    scratch: opts.scratch,
    workspace: opts.workspace,
    settings: { "hearth.model": `scripted:${opts.script}` },
    env: { HEARTH_ALLOW_SCRIPTED: "1" },
  });
}

/** As openScriptedChat, on any model: `settings` (with `hearth.model`) and `env` are the workbench's. */
export async function openChat(into: Started, opts: WorkbenchOptions & { settings: Record<string, unknown> }): Promise<void> {
  const page = await startWorkbench(into, opts);
  await openActivityBarContainer(page, "Hearth");
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

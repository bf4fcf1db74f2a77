// A scenario's common start: code-server with Hearth's packaged .vsix on a workspace and the browser
// on the workbench, with the Hearth chat view open on a scripted (or any) model or not yet opened;
// then the chat's box, the n-th turn's end and the active editor's code lenses, as several
// scenarios use them.
import fs from "node:fs";
import path from "node:path";
import { packagedVsix } from "../../support/packagedExtension.js";
import { launchBrowser, openWorkbench, type Browser } from "./browser.js";
import { startCodeServer, type CodeServer } from "./codeServer.js";
import type { FrameLocator, Locator, Page } from "./playwright.js";
import { findTools } from "./tools.js";
import { openActivityBarContainer, waitFor, webviewViewFrame } from "./webview.js";

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

/**
 * The workbench's settings and environment for a scripted model (`script`: its JSON file), with
 * `env` added: the extension host passes its environment to the kernel through the launcher.
 */
export function scriptedModel(
  script: string,
  env: Record<string, string> = {},
): { settings: Record<string, unknown>; env: Record<string, string> } {
  return { settings: { "hearth.model": `scripted:${script}` }, env: { HEARTH_ALLOW_SCRIPTED: "1", ...env } };
}

/**
 * The folders of a workbench whose kernel a terminal's `hearth` shares, under `scratch`: its HEARTH_HOME
 * (the same for the workbench and the terminal: one journal, one kernel) and its profile, where the
 * .vsix is installed (the installed CLI runs from there).
 */
export function sharedKernelFolders(scratch: string): { home: string; profileDir: string } {
  return { home: path.join(scratch, "hearth-home"), profileDir: path.join(scratch, "profile") };
}

/**
 * Makes the workspace, writes `script` (a scripted model's rounds) to `<scratch>/<scriptName>` and
 * starts the workbench on it in the folders of sharedKernelFolders; the chat view is not opened.
 */
export async function startSharedKernelWorkbench(
  into: Started,
  opts: { scratch: string; workspace: string; scriptName: string; script: { rounds: unknown[] }; mark: (what: string) => void },
): Promise<void> {
  const { home, profileDir } = sharedKernelFolders(opts.scratch);
  fs.mkdirSync(opts.workspace);
  const script = path.join(opts.scratch, opts.scriptName);
  fs.writeFileSync(script, JSON.stringify(opts.script));
  await startWorkbench(into, {
    scratch: opts.scratch,
    workspace: opts.workspace,
    profileDir,
    ...scriptedModel(script, { HEARTH_HOME: home }),
    mark: opts.mark,
  });
}

/** Starts the workbench and opens the chat on a scripted model (`script`: its JSON file). */
export async function openScriptedChat(into: Started, opts: { scratch: string; workspace: string; script: string }): Promise<void> {
  await openChat(into, { scratch: opts.scratch, workspace: opts.workspace, ...scriptedModel(opts.script) });
}

/** As openScriptedChat, on any model: `settings` (with `hearth.model`) and `env` are the workbench's. */
export async function openChat(into: Started, opts: WorkbenchOptions & { settings: Record<string, unknown> }): Promise<void> {
  const page = await startWorkbench(into, opts);
  await openActivityBarContainer(page, "Hearth");
}

/** Opens the Hearth container and returns the chat view once its kernel has answered (the kernel's version is in the view). */
export async function openChatView(page: Page, extensionId: string): Promise<FrameLocator> {
  await openActivityBarContainer(page, "Hearth");
  const view = webviewViewFrame(page, extensionId);
  await view.locator('[data-testid="kernel-version"]').waitFor({ state: "attached", timeout: 60_000 });
  return view;
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

/**
 * Clicks the proposal's lens `title` once it shows, and waits for the proposal to be answered: the
 * lenses shown before the click are gone (each rendering has fresh element ids). Then, for a while
 * the next proposal of the batch is drawn in its place, nothing of it to click lies where the pointer
 * clicked (issue 25 item 9: a double click never decides two; extension/edits/proposalLenses.ts).
 */
export async function acceptLens(page: Page, title: string): Promise<void> {
  const a = lens(page, title);
  await a.waitFor({ state: "visible", timeout: 60_000 });
  const ids = () => page.locator(".monaco-editor .codelens-decoration a").evaluateAll((links) => links.map((l) => l.id));
  const shown = await ids();
  const box = await a.boundingBox();
  if (!box) throw new Error(`the lens "${title}" has no place on the screen`);
  const pointer: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.click(...pointer);
  await waitFor(async () => (await ids()).every((id) => !shown.includes(id)), 10_000, `the lenses of "${title}" to go`);
  for (let i = 0; i < 10; i++) {
    const under = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest(".codelens-decoration a")?.textContent ?? null,
      pointer,
    );
    if (under !== null) throw new Error(`the next proposal's lens "${under}" stands where "${title}" was just clicked`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The [path, outcome] of each per-file outcome item (undo's and rewind's lists carry both as data). */
export function pathOutcomes(items: Locator): Promise<(string | undefined)[][]> {
  return items.evaluateAll((all) => all.map((i) => [(i as HTMLElement).dataset.path, (i as HTMLElement).dataset.outcome]));
}

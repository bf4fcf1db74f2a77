// Reaching into webviews. A webview is two nested iframes: the outer `iframe.webview.ready` whose
// src names the extension (`extensionId=<publisher>.<name>`; views also carry
// `purpose=webviewView`) and the inner `iframe#active-frame` holding the extension's page.
import type { FrameLocator, Page } from "./playwright.js";

export function webviewViewFrame(page: Page, extensionId: string): FrameLocator {
  return page
    .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"][src*="purpose=webviewView"]`)
    .frameLocator("iframe#active-frame");
}

/** Clicks a view container in the activity bar (a toggle: click it once, while it is closed). */
export async function openActivityBarContainer(page: Page, title: string): Promise<void> {
  await page.locator(`.part.activitybar [aria-label^="${title}"]`).first().click({ timeout: 30_000 });
}

/** Runs a command by its title through the command palette. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ state: "visible" });
  await page.keyboard.press("Enter");
}

/**
 * Opens a workspace file with Quick Open. Quick Open is the workbench's key, and the chat's webview may
 * hold the focus: `focusOn` (the editor area) is clicked first, and the key pressed again if the first
 * press went to the webview. The match itself is clicked: Enter may take a recently opened file listed
 * before the filter applies.
 */
export async function quickOpen(page: Page, file: string, focusOn = ".part.editor"): Promise<void> {
  const input = page.locator(".quick-input-widget input");
  for (let tries = 0; !(await input.isVisible()); tries++) {
    if (tries >= 5) throw new Error(`Quick Open did not open to open ${file}`);
    await page.locator(focusOn).first().click();
    await page.keyboard.press("Control+P");
    await input.waitFor({ state: "visible", timeout: 3_000 }).catch(() => undefined);
  }
  await input.fill(file);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: file }).first().click();
}

/**
 * Types `typed` ending in "@" in the chat's message box, filters the @ menu that opens with `filter`
 * and picks the row that shows `row`. `beforeFilter` runs once the menu is open (a screenshot of it).
 */
export async function pickFromAtMenu(
  page: Page,
  view: FrameLocator,
  typed: string,
  filter: string,
  row: string,
  beforeFilter?: () => Promise<unknown>,
): Promise<void> {
  const input = page.locator(".quick-input-widget input");
  await view.locator("#message textarea").fill(typed, { timeout: 60_000 });
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await beforeFilter?.();
  await input.fill(filter);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: row }).first().click();
}

/** Polls a condition (a log file, a process) until it holds; the error names what was awaited. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Headless Debian Chromium driven by playwright-core, with its own profile and home folder.
import path from "node:path";
import { loadChromium, type BrowserContext, type Page } from "./playwright.js";
import type { E2eTools } from "./tools.js";

export interface Browser {
  page: Page;
  /** Console errors of the workbench and its webviews, for diagnosis. */
  consoleErrors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(tools: E2eTools, dir: string): Promise<Browser> {
  const home = path.join(dir, "chrome-home");
  const context: BrowserContext = await loadChromium(tools.playwrightCore).launchPersistentContext(path.join(dir, "chrome-profile"), {
    executablePath: tools.chromium,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
    viewport: { width: 1400, height: 900 },
    // The clipboard a desktop VS Code has: the workbench's copy commands read and write it.
    permissions: ["clipboard-read", "clipboard-write"],
    // Chromium writes to the home folder: keep it inside the run.
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_CACHE_HOME: path.join(home, ".cache") },
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error")
      consoleErrors.push(`${m.text().slice(0, 300)} [${m.location().url.replace(/\?.*/, "")}:${m.location().lineNumber}]`);
  });
  return { page, consoleErrors, close: () => context.close() };
}

/** Opens the workbench and waits until it is rendered. */
export async function openWorkbench(page: Page, workbenchUrl: string): Promise<void> {
  await page.goto(workbenchUrl, { timeout: 60_000 });
  await page.waitForSelector(".monaco-workbench .part.activitybar", { timeout: 60_000 });
  await page.waitForSelector(".monaco-workbench .part.statusbar", { timeout: 60_000 });
}

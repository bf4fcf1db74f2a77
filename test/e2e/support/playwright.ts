// playwright-core lives in the tools cache, not in the project's dependencies (it would add a
// browser driver to every `npm install`). These are the few parts of its API the harness uses.
import { createRequire } from "node:module";

export interface Locator {
  click(opts?: { timeout?: number }): Promise<void>;
  dblclick(opts?: { timeout?: number }): Promise<void>;
  fill(value: string, opts?: { timeout?: number }): Promise<void>;
  press(key: string, opts?: { timeout?: number }): Promise<void>;
  first(): Locator;
  last(): Locator;
  nth(index: number): Locator;
  count(): Promise<number>;
  getByRole(role: string, opts?: { name?: string | RegExp; exact?: boolean }): Locator;
  getAttribute(name: string, opts?: { timeout?: number }): Promise<string | null>;
  allTextContents(): Promise<string[]>;
  evaluateAll<R>(fn: (nodes: Element[]) => R): Promise<R>;
  textContent(opts?: { timeout?: number }): Promise<string | null>;
  waitFor(opts?: { state?: "attached" | "detached" | "visible" | "hidden"; timeout?: number }): Promise<void>;
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  filter(opts: { hasText?: string | RegExp }): Locator;
  isVisible(): Promise<boolean>;
  focus(opts?: { timeout?: number }): Promise<void>;
  evaluate<R>(fn: (node: Element) => R): Promise<R>;
  evaluate<R, A>(fn: (node: Element, arg: A) => R, arg: A): Promise<R>;
  scrollIntoViewIfNeeded(opts?: { timeout?: number }): Promise<void>;
  inputValue(opts?: { timeout?: number }): Promise<string>;
  boundingBox(opts?: { timeout?: number }): Promise<{ x: number; y: number; width: number; height: number } | null>;
}

export interface FrameLocator {
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
}

export interface ConsoleMessage {
  type(): string;
  text(): string;
  location(): { url: string; lineNumber: number };
}

export interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  reload(opts?: { timeout?: number }): Promise<unknown>;
  locator(selector: string, opts?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
  waitForSelector(selector: string, opts?: { state?: "attached" | "visible"; timeout?: number }): Promise<unknown>;
  screenshot(opts: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  mouse: { click(x: number, y: number): Promise<void> };
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  on(event: "console", listener: (message: ConsoleMessage) => void): void;
  waitForFunction(fn: () => boolean, arg?: undefined, opts?: { timeout?: number }): Promise<unknown>;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface Chromium {
  launchPersistentContext(
    userDataDir: string,
    opts: {
      executablePath: string;
      headless: boolean;
      args: string[];
      viewport: { width: number; height: number };
      permissions?: string[];
      env: NodeJS.ProcessEnv;
      timeout?: number;
    },
  ): Promise<BrowserContext>;
}

export function loadChromium(playwrightCore: string): Chromium {
  const require = createRequire(import.meta.url);
  return (require(playwrightCore) as { chromium: Chromium }).chromium;
}

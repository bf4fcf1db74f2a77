// A real DOM (jsdom) for the chat view's own parts under node:test: the globals the view and its
// toolkit's custom elements (webview/components) read, taken from one jsdom window. Closed after the file.
import { after } from "node:test";
import { JSDOM } from "jsdom";

export function webviewDom(): JSDOM["window"] {
  const { window } = new JSDOM("<!DOCTYPE html><body></body>");
  after(() => window.close());
  const g = globalThis as Record<string, unknown>;
  for (const name of [
    "document",
    "Document",
    "HTMLElement",
    "SVGElement",
    "HTMLStyleElement",
    "Element",
    "Node",
    "customElements",
    "MutationObserver",
    "ShadowRoot",
    "CSSStyleSheet",
    "DocumentFragment",
    "Event",
    "CustomEvent",
    "KeyboardEvent",
    "HTMLInputElement",
    "getComputedStyle",
    "requestAnimationFrame",
    "cancelAnimationFrame",
  ])
    g[name] ??= (window as unknown as Record<string, unknown>)[name];
  g.window ??= window;
  g.requestAnimationFrame ??= (f: () => void) => setTimeout(f, 0);
  g.cancelAnimationFrame ??= (id: ReturnType<typeof setTimeout>) => clearTimeout(id);
  // jsdom lays nothing out, so no size ever changes: an observer that is never called is the truth there.
  g.ResizeObserver ??= class {
    observe(): void {}
    disconnect(): void {}
  };
  (window as unknown as { matchMedia: unknown }).matchMedia = () => ({ matches: false, addEventListener() {}, addListener() {} });
  g.CSS = { escape: (s: string) => s };
  (window.HTMLElement.prototype as { scrollIntoView?: () => void }).scrollIntoView = () => {};
  return window;
}

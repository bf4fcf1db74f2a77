// webview/approvalCards.ts in a real DOM (jsdom): a card offers "Always allow `<command>` in this
// folder" exactly when the kernel offered a rule for the call, and its click answers approve with
// the rule asked for (issue 27, item 4); without an offer there is no such button.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
// The buttons are the toolkit's custom elements (webview/components): they need the DOM's globals.
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
  "getComputedStyle",
  "requestAnimationFrame",
])
  g[name] ??= (window as unknown as Record<string, unknown>)[name];
g.window ??= window;
g.requestAnimationFrame ??= (f: () => void) => setTimeout(f, 0);
(window as unknown as { matchMedia: unknown }).matchMedia = () => ({ matches: false, addEventListener() {}, addListener() {} });
g.CSS = { escape: (s: string) => s };
(window.HTMLElement.prototype as { scrollIntoView?: () => void }).scrollIntoView = () => {};
const { ApprovalCards } = await import("../../../webview/approvalCards.js");

const call = (callId: string) => ({ callId, name: "shell", arguments: { command: "npm test" } }) as unknown as ToolCallRecord;
const pending = (callId: string, alwaysAllow?: string) => ({
  type: "approval/pending" as const,
  runId: "01900000-0000-7000-8000-000000000001",
  call: call(callId),
  effectClass: "non_idempotent_write" as const,
  ask: "npm test\nin /ws",
  ...(alwaysAllow ? { alwaysAllow } : {}),
});

describe("an approval card's Always allow (issue 27, item 4)", () => {
  it("offers the kernel's rule by name and answers approve with it; a card without an offer has no such button", () => {
    const transcript = window.document.createElement("div");
    window.document.body.append(transcript);
    const answers: unknown[] = [];
    const cards = new ApprovalCards(transcript as unknown as HTMLElement, (...a) => answers.push(a));
    cards.pending(pending("c1", "npm test"));
    const always = transcript.querySelector('[data-testid="approval-always"]') as HTMLElement | null;
    assert.equal(always?.textContent, "Always allow `npm test` in this folder");
    always!.click();
    assert.deepEqual(answers, [["c1", "approve", true]]);
    cards.pending(pending("c2"));
    const second = transcript.querySelector('[data-call-id="c2"]')!;
    assert.equal(second.querySelector('[data-testid="approval-always"]'), null);
  });
});

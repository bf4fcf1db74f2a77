// A long message of the person's is shown folded with a button that shows all of it (issue 25 item 8:
// a pasted log sent whole filled the transcript), in a real DOM (jsdom) through webview/transcript.ts.
// The message's text stays whole in the DOM: folding is the view's, never a cut of what was sent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");

const user = (seq: number, text: string) => ({ seq, role: "user", text }) as HistoryMessage;

describe("a long message of the person's (issue 25 item 8)", () => {
  it("folds to its first lines with a button that names its length and shows all of it; a short one has none", () => {
    const log = `Summarize this log\n${Array.from({ length: 199 }, (_, i) => `line ${i}`).join("\n")}`;
    const t = testTranscript(window as unknown as Window);
    t.show([user(1, log), user(2, "and this short one")], { sessionId: "01900000-0000-7000-8000-00000000000a" });
    const [long, short] = t.node.querySelectorAll<HTMLElement>('[data-testid="user-message"]');
    const body = long!.querySelector<HTMLElement>(":scope > .body")!;
    assert.equal(body.textContent, log, "the whole message is there");
    assert.ok(body.classList.contains("folded"));
    const fold = long!.querySelector<HTMLElement>('[data-testid="message-fold"]')!;
    assert.equal(fold.textContent, "Show all 200 lines");
    fold.click();
    assert.equal(body.classList.contains("folded"), false);
    assert.equal(fold.textContent, "Show less");
    fold.click();
    assert.ok(body.classList.contains("folded"));
    assert.equal(short!.querySelector('[data-testid="message-fold"]'), null);
    assert.equal(short!.querySelector(".body")!.classList.contains("folded"), false);
  });

  it("one long line folds too (it wraps into many)", () => {
    const t = testTranscript(window as unknown as Window);
    t.show([user(1, "x".repeat(5_000))], { sessionId: "01900000-0000-7000-8000-00000000000a" });
    assert.equal(t.node.querySelector('[data-testid="message-fold"]')?.textContent, "Show all 5,000 characters");
  });
});

// webview/approvalCards.ts in a real DOM (jsdom): a card offers "Always allow `<command>` in this
// folder" exactly when the kernel offered a rule for the call, and its click answers approve with
// the rule asked for (issue 27, item 4); without an offer there is no such button.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { webviewDom } from "../../support/webviewDom.js";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";

const window = webviewDom();
const { ApprovalCards } = await import("../../../webview/approvalCards.js");

const call = (callId: string) => ({ callId, name: "shell", arguments: { command: "npm test" } }) as unknown as ToolCallRecord;
const pending = (callId: string, alwaysAllow?: string) => ({
  type: "approval/pending" as const,
  turnId: "01900000-0000-7000-8000-000000000001",
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

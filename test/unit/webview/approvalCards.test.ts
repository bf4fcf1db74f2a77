// webview/approvalCards.ts in a real DOM (jsdom): a card offers "Always allow <command> in this
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
    const cards = new ApprovalCards(
      transcript as unknown as HTMLElement,
      (...a) => answers.push(a),
      () => undefined,
    );
    cards.pending(pending("c1", "npm test"));
    assert.equal(
      transcript.querySelector(".approval-title")?.textContent,
      "Hearth asks to run shell (it changes things, and running it twice may not be the same as once):",
      "plain words, not the ledger's effect class (issue 25 item 11)",
    );
    const always = transcript.querySelector('[data-testid="approval-always"]') as HTMLElement | null;
    assert.equal(always?.textContent, "Always allow npm test in this folder");
    assert.equal(always?.querySelector("code")?.textContent, "npm test", "the command drawn as code (issue 25 item 11)");
    always!.click();
    assert.deepEqual(answers, [["c1", "approve", true]]);
    cards.pending(pending("c2"));
    const second = transcript.querySelector('[data-call-id="c2"]')!;
    assert.equal(second.querySelector('[data-testid="approval-always"]'), null);
  });
});

describe("a proposed edit's card says it waits in the editor (issue 25 item 9)", () => {
  it("names the file, moves into the call's card once drawn, Show in editor asks to reveal it, and goes when decided", async () => {
    const transcript = window.document.createElement("div");
    window.document.body.append(transcript);
    const revealed: string[] = [];
    const cards = new ApprovalCards(
      transcript as unknown as HTMLElement,
      () => undefined,
      (callId) => revealed.push(callId),
    );
    cards.editWaiting({ type: "edit/waiting", callId: "e1", file: "src/app.ts" });
    const line = transcript.querySelector('[data-testid="edit-waiting"]') as HTMLElement;
    assert.match(line.textContent ?? "", /^Waiting for you in src\/app\.ts/);
    const card = window.document.createElement("div");
    card.className = "tool-call";
    card.dataset.callId = "e1";
    transcript.append(card);
    await new Promise((r) => setTimeout(r, 0)); // the MutationObserver's microtask
    assert.equal(line.parentElement, card, "placed inside the call's card");
    (line.querySelector('[data-testid="edit-reveal"]') as HTMLElement).click();
    assert.deepEqual(revealed, ["e1"]);
    cards.editDecided("e1");
    assert.equal(transcript.querySelector('[data-testid="edit-waiting"]'), null);
  });
});

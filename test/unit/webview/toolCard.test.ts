// webview/toolCard.ts in a real DOM (jsdom): a tool card says who decided its approval, where and when
// (issue 24: every decision is journaled, and the card shows it), and a call nobody was asked about says nothing.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { decisionText, setCallDecision, toolCard } = await import("../../../webview/toolCard.js");

const call = { callId: "c1", name: "shell", arguments: { command: "npm test" } } as unknown as ToolCallRecord;
const at = "2026-12-01T14:02:00.000Z";

describe("a tool card's approval decision (issue 24)", () => {
  it("names the decision, who made it, where and when", () => {
    const byLens = { decision: "approve", decidedBy: { kind: "window", clientId: "w" }, surface: "lens", decidedAt: at } as const;
    assert.equal(decisionText(byLens, "UTC"), "Approved in VS Code, in the file, at 14:02");
    const atTerminal = { decision: "deny", decidedBy: { kind: "terminal", clientId: "t" }, surface: "terminal", decidedAt: at } as const;
    assert.equal(decisionText(atTerminal, "UTC"), "Denied at a terminal, hearth task approve|deny, at 14:02");
    const byRule = { decision: "approve", decidedBy: { kind: "kernel", clientId: "kernel" }, surface: "rule", decidedAt: at } as const;
    assert.equal(decisionText(byRule, "UTC"), "Approved by a rule, at 14:02");
    // issue 27: a person's approval rule is named with where it is defined.
    const named = {
      ...byRule,
      decidedBy: { kind: "kernel", clientId: '"allow shell `npm test`" (workspace .hearth/rules.json #2)' },
    } as const;
    assert.equal(decisionText(named, "UTC"), 'Approved by rule "allow shell `npm test`" (workspace .hearth/rules.json #2), at 14:02');
  });

  it("shows the decision under the card's head, replaces it when the state changes, and shows none when nobody was asked", () => {
    const card = toolCard(call, "succeeded");
    window.document.body.append(card as unknown as Node);
    setCallDecision(card, { decision: "deny", decidedBy: { kind: "window", clientId: "w" }, surface: "card", decidedAt: at });
    const shown = card.querySelectorAll('[data-testid="tool-decision"]');
    assert.equal(shown.length, 1);
    assert.match(shown[0]!.textContent ?? "", /^Denied in VS Code, on this card, at /);
    assert.ok(shown[0]!.classList.contains("deny"));
    setCallDecision(card, undefined);
    assert.equal(card.querySelectorAll('[data-testid="tool-decision"]').length, 0);
  });
});

// A call's approval decision reaches its live card while the turn runs (issue 27: every automatic
// decision is shown on the tool card), in a real DOM (jsdom) through webview/transcript.ts: a decision
// heard after its card is drawn shows at once; one heard before (the notice can overtake the card's
// turn event) shows as soon as the card is drawn; either says who decided, as the journal does.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");

const TURN = "01900000-0000-7000-8000-000000000001";
function liveTurn() {
  const transcript = testTranscript(window as unknown as Window);
  window.document.body.replaceChildren(transcript.node as unknown as Node);
  transcript.startTurn(TURN, "run the tests");
  const decisionOf = (callId: string) =>
    transcript.node.querySelector(`.tool-call[data-call-id="${callId}"] [data-testid="tool-decision"]`)?.textContent ?? null;
  return { transcript, decisionOf };
}

const call = (callId: string): ToolCallRecord => ({ callId, name: "shell", arguments: { command: "npm test" } }) as ToolCallRecord;
const byRule = {
  decision: "approve" as const,
  decidedBy: { kind: "kernel" as const, clientId: "shell `npm test` (.hearth/rules.json)" },
  surface: "rule" as const,
  decidedAt: "2026-12-02T15:04:00.000Z",
};

describe("a live card shows who decided its call (issue 27)", () => {
  it("a decision heard after the card is drawn shows on it at once", () => {
    const { transcript, decisionOf } = liveTurn();
    const id = "01900000-0000-7000-8000-0000000000c1";
    transcript.event(TURN, { type: "tool_call", call: call(id) });
    assert.equal(decisionOf(id), null, "nobody has decided yet");
    transcript.decision(id, byRule);
    assert.match(
      decisionOf(id) ?? "",
      /^Approved by rule shell npm test \(\.hearth\/rules\.json\), at /,
      "the command as code, no backticks",
    );
    transcript.event(TURN, { type: "completed", status: "completed" }); // stops the turn's elapsed-time ticker
  });

  it("a decision heard before its card is drawn shows once the card is", () => {
    const { transcript, decisionOf } = liveTurn();
    const id = "01900000-0000-7000-8000-0000000000c2";
    transcript.decision(id, byRule);
    transcript.event(TURN, { type: "tool_call", call: call(id) });
    assert.match(decisionOf(id) ?? "", /^Approved by rule /);
    transcript.event(TURN, { type: "completed", status: "completed" });
  });
});

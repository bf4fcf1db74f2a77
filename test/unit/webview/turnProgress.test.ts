// webview/turnProgress.ts in a real DOM (jsdom): the sign of life under a streaming reply (issue 25 item 4).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { TurnProgress, progressText } = await import("../../../webview/turnProgress.js");

const call = { callId: "c1", name: "read_file", arguments: { path: "README.md" } } as unknown as ToolCallRecord;

describe("the turn's sign of life (issue 25 item 4)", () => {
  it("says what the model does now, the seconds since the turn began and the tokens streamed so far", () => {
    let now = 1_000;
    const progress = new TurnProgress(1_000, () => now);
    window.document.body.append(progress.node as unknown as Node);
    assert.equal(progress.node.textContent, "Thinking… 0 s", "before the first token: thinking, no token count");
    now = 4_500;
    progress.hear({ type: "reasoning_delta", text: "a".repeat(40) });
    assert.equal(progress.node.textContent, "Thinking… 3 s · ≈10 tokens so far");
    progress.hear({ type: "answer_delta", text: "b".repeat(40) });
    assert.equal(progress.node.textContent, "Writing… 3 s · ≈20 tokens so far");
    // issue 25 item 4: the call shows while its arguments are still being generated.
    progress.hear({ type: "tool_call_started", index: 0, name: "read_file" });
    assert.equal(progress.node.textContent, "Writing a read_file call… 3 s · ≈20 tokens so far");
    assert.equal(progress.node.dataset.doing, "composing");
    // The call's arguments count as tokens the turn spent, while they are written.
    progress.hear({ type: "tool_call_args", index: 0, chars: 40 });
    assert.equal(progress.node.textContent, "Writing a read_file call… 3 s · ≈30 tokens so far");
    progress.hear({ type: "tool_call", call });
    assert.equal(progress.node.textContent, "Running read_file… 3 s · ≈30 tokens so far");
    progress.hear({ type: "status", status: "waiting_approval" });
    assert.equal(progress.node.dataset.doing, "waiting");
    progress.hear({ type: "status", status: "running" });
    assert.equal(progress.node.dataset.doing, "thinking");
    progress.hear({ type: "completed", status: "completed" });
    assert.equal(progress.node.isConnected, false, "gone when the turn ends");
  });

  it("is hidden from screen readers (the live region says the turn's state once) and counts large numbers readably", () => {
    const progress = new TurnProgress(0, () => 0);
    assert.equal(progress.node.getAttribute("aria-hidden"), "true");
    progress.stop();
    assert.equal(progressText({ kind: "writing" }, 65.9, 48_000), "Writing… 65 s · ≈12,000 tokens so far");
  });
});

// A reloaded chat shows how its runs ended as the live one did (issue 25 item 11), in a real DOM
// (jsdom) through webview/transcript.ts: a cancelled answer's text and its "Cancelled" line after its
// user message, a failure's words, an answer cut at the token cap; a run that completed adds nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");

const SESSION = "01900000-0000-7000-8000-00000000000a";
const user = (seq: number, text: string) => ({ seq, role: "user", text }) as HistoryMessage;
const answer = (seq: number, text: string) => ({ seq, role: "assistant", text, toolCalls: [] }) as unknown as HistoryMessage;

function replies(node: HTMLElement) {
  return Array.from(node.querySelectorAll<HTMLElement>('[data-testid="assistant-message"]'), (block) => ({
    answer: block.querySelector(".answer")?.textContent?.trim() ?? "",
    status: block.querySelector<HTMLElement>('[data-testid="turn-status"]')?.dataset.status,
    line: block.querySelector('[data-testid="turn-status"]')?.textContent ?? "",
  }));
}

describe("how a run ended, read back (issue 25 item 11)", () => {
  it("a reloaded cancelled turn reads as the live one did: its unfinished answer, then Cancelled", () => {
    const live = testTranscript(window as unknown as Window);
    live.startTurn("01900000-0000-7000-8000-0000000000b1", "explain it");
    live.event("01900000-0000-7000-8000-0000000000b1", { type: "answer_delta", text: "The first half of " });
    live.event("01900000-0000-7000-8000-0000000000b1", { type: "answer_delta", text: "an answer" });
    live.event("01900000-0000-7000-8000-0000000000b1", {
      type: "completed",
      status: "cancelled",
      error: { code: 1, message: "the turn was cancelled" },
    });

    const reloaded = testTranscript(window as unknown as Window);
    reloaded.show([user(1, "explain it")], {
      sessionId: SESSION,
      endings: { "1": { status: "cancelled", message: "the turn was cancelled", unfinishedAnswer: "The first half of an answer" } },
    });
    assert.deepEqual(replies(reloaded.node), replies(live.node));
    assert.deepEqual(replies(reloaded.node), [{ answer: "The first half of an answer", status: "cancelled", line: "Cancelled" }]);
  });

  it("each ending goes after its own run's last message; a failure says its words, a cut answer says so, a completion nothing", () => {
    const t = testTranscript(window as unknown as Window);
    t.show([user(1, "one"), user(2, "two"), answer(3, "Long answer"), user(4, "three"), answer(5, "Fine.")], {
      sessionId: SESSION,
      endings: {
        "1": { status: "failed", message: "model_failed: the server went away", unfinishedAnswer: "Half" },
        "3": { status: "completed", stoppedAtTokenCap: true },
      },
    });
    const order = Array.from(
      t.node.querySelectorAll<HTMLElement>('[data-testid="user-message"], [data-testid="assistant-message"]'),
      (n) => (n.dataset.testid === "user-message" ? `you: ${n.querySelector(".body")?.textContent}` : "hearth"),
    );
    assert.deepEqual(order, ["you: one", "hearth", "you: two", "hearth", "you: three", "hearth"]);
    assert.deepEqual(replies(t.node), [
      { answer: "Half", status: "failed", line: "Failed: the server went away" }, // the failure kind is the log's word (issue 25 item 11)
      { answer: "Long answer", status: "completed", line: "Stopped at the token cap: the answer is cut off" },
      { answer: "Fine.", status: undefined, line: "" },
    ]);
  });
});

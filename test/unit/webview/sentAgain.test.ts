// Issue 25 item 2, "Use the old tools for this chat": the message the tool change refused is sent once
// more, and the chat shows it once, live and read back, as the model sees it once (the refused run's
// lone message is not replayed to it). In a real DOM (jsdom) through webview/transcript.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");

const SESSION = "01900000-0000-7000-8000-00000000000a";
const REFUSED = "01900000-0000-7000-8000-0000000000c1";
const AGAIN = "01900000-0000-7000-8000-0000000000c2";
const DRIFT =
  "model_failed: refused to resume: the session's authority drifted (tools changed since it was recorded); start a new session to run under the current tools and workspace";
const user = (seq: number, text: string) => ({ seq, role: "user", text }) as HistoryMessage;
const answer = (seq: number, text: string) => ({ seq, role: "assistant", text, toolCalls: [] }) as unknown as HistoryMessage;
const refusal = { status: "failed" as const, message: DRIFT };

/** The chat as a person reads it: each message of theirs, each reply's answer or status line. */
function read(node: HTMLElement): string[] {
  return Array.from(node.querySelectorAll<HTMLElement>('[data-testid="user-message"], [data-testid="assistant-message"]'), (n) =>
    n.dataset.testid === "user-message"
      ? `you: ${n.querySelector(".body")?.textContent}`
      : `hearth: ${n.querySelector(".answer")?.textContent?.trim() || n.querySelector('[data-testid="turn-status"]')?.getAttribute("data-status")}`,
  );
}

describe("a refused message sent again shows once (issue 25 item 2)", () => {
  it("live: the message sent again after Use the old tools is not drawn a second time; its answer follows the refusal", () => {
    const t = testTranscript(window as unknown as Window);
    t.startTurn(REFUSED, "One more");
    t.event(REFUSED, { type: "completed", status: "failed", error: { code: 0, message: DRIFT } });
    t.notice("info", "This chat goes on with the tools it began with; new chats use the tools set now. Your message is sent again.");
    t.startTurn(AGAIN, "One more", { again: true });
    t.event(AGAIN, { type: "answer_delta", text: "Answered with the old tools." });
    t.event(AGAIN, { type: "completed", status: "completed" });
    assert.deepEqual(read(t.node), ["you: One more", "hearth: failed", "hearth: Answered with the old tools."]);
  });

  it("read back: a message that repeats the one just refused is shown once, with the refusal and then the answer", () => {
    const t = testTranscript(window as unknown as Window);
    t.show([user(1, "How is this built?"), answer(2, "With esbuild."), user(3, "One more"), user(4, "One more"), answer(5, "Answered.")], {
      sessionId: SESSION,
      endings: { "3": refusal },
    });
    assert.deepEqual(read(t.node), [
      "you: How is this built?",
      "hearth: With esbuild.",
      "you: One more",
      "hearth: failed",
      "hearth: Answered.",
    ]);
  });

  it("read back: a resend refused again keeps each refusal; a repeat after an answer, or after a failure that said something, is a message of its own", () => {
    const twice = testTranscript(window as unknown as Window);
    twice.show([user(1, "One more"), user(2, "One more"), user(3, "One more"), answer(4, "At last.")], {
      sessionId: SESSION,
      endings: { "1": refusal, "2": refusal },
    });
    assert.deepEqual(read(twice.node), ["you: One more", "hearth: failed", "hearth: failed", "hearth: At last."]);

    const distinct = testTranscript(window as unknown as Window);
    distinct.show([user(1, "Again?"), answer(2, "Yes."), user(3, "Again?"), user(4, "Again?"), answer(5, "Still yes.")], {
      sessionId: SESSION,
      endings: { "3": { status: "failed", message: "model_failed: the server went away", unfinishedAnswer: "Half an" } },
    });
    assert.deepEqual(read(distinct.node), [
      "you: Again?",
      "hearth: Yes.",
      "you: Again?",
      "hearth: Half an",
      "you: Again?",
      "hearth: Still yes.",
    ]);
  });
});

// A tool call shows as a card while the model writes it (issue 25 item 4: minutes of an empty reply,
// then three cards at once), in a real DOM (jsdom) through webview/transcript.ts: the card comes with
// tool_call_started, counts seconds and tokens, becomes the call's own card in place when the call
// arrives (one card per call), and one whose call never came says so when the turn ends.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");
const { PendingCalls } = await import("../../../webview/pendingCalls.js");

const TURN = "01900000-0000-7000-8000-000000000001";
const call = (callId: string, name: string, args: Record<string, unknown>): ToolCallRecord =>
  ({ callId, name, arguments: args }) as ToolCallRecord;

function liveTurn() {
  const transcript = testTranscript(window as unknown as Window);
  window.document.body.replaceChildren(transcript.node as unknown as Node);
  transcript.startTurn(TURN, "look around");
  const reply = () => transcript.node.querySelector<HTMLElement>('[data-testid="assistant-message"]')!;
  /** The reply's cards in order: pending ones by their tool, made ones by their call id. */
  const cards = () =>
    Array.from(reply().querySelectorAll<HTMLElement>(".tool-call")).map((c) =>
      c.dataset.callId ? `${c.dataset.callId} ${c.dataset.status}` : `${c.dataset.tool} ${c.dataset.status}`,
    );
  return { transcript, reply, cards };
}

describe("a tool call's card while the model writes it (issue 25 item 4)", () => {
  it("appears with the tool's name when the call starts and becomes the call's card in place when it arrives", () => {
    const { transcript, reply, cards } = liveTurn();
    transcript.event(TURN, { type: "answer_delta", text: "Let me look." });
    transcript.event(TURN, { type: "tool_call_started", index: 0, name: "list_dir" });
    assert.deepEqual(cards(), ["list_dir writing"]);
    const standIn = reply().querySelector<HTMLElement>('[data-testid="tool-call-pending"]')!;
    assert.equal(standIn.querySelector(".tool-name")?.textContent, "list_dir");
    assert.match(standIn.querySelector(".tool-status")?.textContent ?? "", /^writing the call… 0 s$/);
    const before = standIn.previousElementSibling;
    transcript.event(TURN, { type: "tool_call", call: call("c1", "list_dir", { path: "." }) });
    assert.deepEqual(cards(), ["c1 prepared"], "one card: the stand-in became the call's");
    assert.equal(standIn.isConnected, false);
    const made = reply().querySelector<HTMLElement>('[data-call-id="c1"]')!;
    assert.equal(made.previousElementSibling, before, "in the stand-in's place, under the answer it followed");
    transcript.event(TURN, { type: "tool_result", callId: "c1", name: "list_dir", ok: true, output: "a.txt" });
    transcript.event(TURN, { type: "completed", status: "completed" });
    assert.deepEqual(cards(), ["c1 succeeded"]);
  });

  it("several calls of a round each keep their own card, in the order the model wrote them", () => {
    const { transcript, cards } = liveTurn();
    transcript.event(TURN, { type: "tool_call_started", index: 0, name: "read_file" });
    transcript.event(TURN, { type: "tool_call_started", index: 1, name: "list_dir" });
    assert.deepEqual(cards(), ["read_file written", "list_dir writing"], "the first is written whole once the second begins");
    transcript.event(TURN, { type: "tool_call", call: call("c1", "read_file", { path: "a.txt" }) });
    assert.deepEqual(cards(), ["c1 prepared", "list_dir written"], "the round is over: the second waits its turn");
    transcript.event(TURN, { type: "tool_result", callId: "c1", name: "read_file", ok: true, output: "A" });
    transcript.event(TURN, { type: "tool_call", call: call("c2", "list_dir", { path: "." }) });
    assert.deepEqual(cards(), ["c1 succeeded", "c2 prepared"]);
    transcript.event(TURN, { type: "completed", status: "completed" });
  });

  it("a call the turn never made (cancelled while written) stays, saying it never ran and why", () => {
    const { transcript, reply, cards } = liveTurn();
    transcript.event(TURN, { type: "tool_call_started", index: 0, name: "write_file" });
    transcript.event(TURN, { type: "completed", status: "cancelled" });
    assert.deepEqual(cards(), ["write_file not_made"]);
    const card = reply().querySelector<HTMLElement>('[data-testid="tool-call-pending"]')!;
    assert.equal(card.querySelector(".tool-status")?.textContent, "never ran");
    assert.match(card.querySelector(".tool-reason")?.textContent ?? "", /cancelled while the model wrote this call/);
  });

  it("a round's call that never came is settled when the next round begins; a failed turn says it failed", () => {
    const { transcript, reply, cards } = liveTurn();
    transcript.event(TURN, { type: "tool_call_started", index: 0, name: "read_file" });
    transcript.event(TURN, { type: "tool_call_started", index: 0, name: "list_dir" });
    assert.deepEqual(cards(), ["read_file not_made", "list_dir writing"]);
    transcript.event(TURN, { type: "completed", status: "failed", error: { code: -32000, message: "the model round failed" } });
    const reasons = Array.from(reply().querySelectorAll(".tool-reason")).map((r) => r.textContent);
    assert.match(reasons[1] ?? "", /failed while the model wrote this call/);
  });

  it("counts the seconds since the call began and the tokens written into it", () => {
    let now = 1_000;
    const calls = new PendingCalls(() => now);
    const card = calls.started(0, "edit_file");
    now = 13_500;
    calls.tick();
    assert.equal(card.querySelector(".tool-status")?.textContent, "writing the call… 12 s");
    calls.grew(0, 400);
    assert.equal(card.querySelector(".tool-status")?.textContent, "writing the call… 12 s · ≈100 tokens");
    calls.settle("cancelled");
  });
});

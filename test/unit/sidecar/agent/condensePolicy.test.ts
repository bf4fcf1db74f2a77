// Protects condensing's policy (issue 13, item 3; docs/harness.md "Condensing instead of dying"): which tool
// outputs may be elided and in what order, where the verbatim turns begin, what a summary replaces, the
// summary message, the bounded one-line transcript and the fallback summary when the model writes none.
import assert from "node:assert/strict";
import { it } from "node:test";
import {
  ELIDE_MIN_CHARS,
  elisionCandidates,
  fallbackSummary,
  recentTurnStarts,
  SUMMARY_MAX_CHARS,
  summarisedView,
  summaryPrompt,
  transcriptLines,
  viewOf,
} from "../../../../sidecar/agent/condensePolicy.js";
import type { AgentMessage } from "../../../../sidecar/agent/index.js";

const user = (text: string): AgentMessage => ({ role: "user", text });
const answer = (text: string): AgentMessage => ({ role: "assistant", text, toolCalls: [] });
const calls = (...ids: string[]): AgentMessage => ({
  role: "assistant",
  text: "",
  toolCalls: ids.map((id) => ({ callId: id, name: "read_file", arguments: { path: `${id}.txt` } })),
});
const result = (id: string, chars: number): AgentMessage => ({
  role: "tool",
  callId: id,
  name: "read_file",
  ok: true,
  output: "x".repeat(chars),
});

it("issue 13: only outputs of at least 300 characters, after the summary and before the verbatim turns, not yet elided, may be elided, biggest first", () => {
  const history = [
    user("r"), //             0
    calls("cA", "c0", "c1", "c2", "c3", "c4"),
    result("cA", 5000), //    2: replaced by the summary
    result("c0", 1000), //    3: the first message after the summary
    result("c1", ELIDE_MIN_CHARS - 1), // too short to be worth a marker
    result("c2", ELIDE_MIN_CHARS), //     just long enough
    result("c3", 800), //     already elided
    result("c4", 900), //     7: where the verbatim turns begin
  ];
  const view = { summary: "S", replacedCount: 3, elidedCallIds: ["c3"] };
  assert.deepEqual(elisionCandidates(history, view, 7), ["c0", "c2"]);
});

it("issue 13: among outputs of equal size the oldest is elided first", () => {
  const history: AgentMessage[] = [user("r")];
  const ids = Array.from({ length: 40 }, (_, i) => `t${i}`);
  for (const [i, id] of ids.entries()) {
    history.push(calls(id), result(id, 400));
    if (i === 20) history.push(calls("big"), result("big", 900));
  }
  assert.deepEqual(elisionCandidates(history, { summary: null, replacedCount: 0, elidedCallIds: [] }, history.length), ["big", ...ids]);
});

it("issue 13: the verbatim turns are the previous turn and the current one, counted from the current turn's start once it has committed messages", () => {
  const history = [user("a"), answer("A"), user("b"), answer("B"), user("c"), calls("c1"), result("c1", 10)];
  assert.deepEqual(recentTurnStarts(history, 4), [2, 4], "the current turn's own user message is not the previous turn");
  assert.deepEqual(recentTurnStarts(history.slice(0, 4), 4), [2, 4]);
  assert.deepEqual(recentTurnStarts(history.slice(0, 2), 2), [0, 2], "a previous turn that begins the history is still the previous turn");
  assert.deepEqual(recentTurnStarts([], 0), [0], "no previous turn: only the current one");
  assert.deepEqual(recentTurnStarts([{ role: "system", text: "s" }], 1), [1]);
});

it("issue 13: a summary replaces history up to keep; elisions before it are dropped as moot, later ones kept; it is cut to 4000 characters", () => {
  const history = [user("a"), calls("c1"), result("c1", 400), answer("A"), user("b"), calls("c2"), result("c2", 400), answer("B")];
  const long = "S".repeat(SUMMARY_MAX_CHARS + 1000);
  const view = summarisedView(history, { summary: null, replacedCount: 0, elidedCallIds: ["c1", "c2"] }, long, 4);
  assert.deepEqual(view, { summary: long.slice(0, SUMMARY_MAX_CHARS), replacedCount: 4, elidedCallIds: ["c2"] });
  assert.equal(SUMMARY_MAX_CHARS, 4000);
});

it("issue 13: the model sees the summary as a user message at the start of history, then the rest, elided outputs as markers", () => {
  const history = [user("a"), calls("c1"), result("c1", 400), answer("A"), user("b"), calls("c2"), result("c2", 400), answer("B")];
  const out = viewOf(history, { summary: "the user asked for a", replacedCount: 4, elidedCallIds: ["c2"] });
  assert.equal(out.length, 5);
  assert.equal(out[0]!.role, "user");
  assert.match(
    (out[0] as { text: string }).text,
    /^\[Summary of the 4 earlier messages of this conversation, condensed by Hearth[^\n]*\]\nthe user asked for a$/,
  );
  assert.deepEqual(out.slice(1, 3), history.slice(4, 6));
  assert.match((out[3] as { output: string }).output, /^\[400 characters of read_file output elided by Hearth/);
  assert.deepEqual(out[4], history[7]);
});

it("issue 13: the transcript a summary is written from has one bounded line per message, calls and results included", () => {
  const lines = transcriptLines([
    { role: "system", text: "be brief" },
    user("line one\n\n  line two"),
    {
      role: "assistant",
      text: "ok",
      toolCalls: [
        { callId: "c1", name: "read_file", arguments: { path: "a" } },
        { callId: "c2", name: "run", arguments: { cmd: "ls" } },
      ],
    },
    { role: "tool", callId: "c1", name: "read_file", ok: true, output: "abc" },
    { role: "tool", callId: "c2", name: "run", ok: false, output: "boom" },
    user("u".repeat(594)), // "user: " + 594 = 600 characters: kept whole
    user("v".repeat(700)),
  ]);
  assert.deepEqual(lines, [
    "system: be brief",
    "user: line one line two",
    'assistant: ok [called read_file {"path":"a"}] [called run {"cmd":"ls"}]',
    "read_file returned: abc",
    "run failed: boom",
    `user: ${"u".repeat(594)}`,
    `user: ${"v".repeat(594)}…`,
  ]);
});

it("issue 13: the summary request lists the transcript one line per message, after the summary so far", () => {
  assert.equal(summaryPrompt(null, ["a", "b"]), "Conversation to add to the summary:\na\nb\n\nWrite the updated summary.");
  assert.equal(summaryPrompt("S", ["a"]), "Summary so far:\nS\n\nConversation to add to the summary:\na\n\nWrite the updated summary.");
});

it("issue 13: when the model writes no summary, the user's requests (each bounded) are kept, after the summary so far", () => {
  const w = "w".repeat(300);
  assert.equal(
    fallbackSummary(null, ["user: first", "assistant: x", "read_file returned: user: no", `user: ${w}`]),
    `Earlier requests:\n- first\n- ${w.slice(0, 194)}`,
  );
  assert.equal(fallbackSummary("S", ["read_file returned: y"]), "S\nEarlier tool work without new requests.");
  assert.equal(fallbackSummary(null, []), "Earlier tool work without new requests.");
});

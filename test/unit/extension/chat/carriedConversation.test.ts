// What a new chat carries from one that cannot go on (issue 25, item 2): the conversation in plain
// words, the calls named, the newest kept when it is long, nothing when there is nothing to carry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { carriedConversation } from "../../../../extension/chat/carriedConversation.js";
import type { HistoryMessage } from "../../../../shared/protocol/index.js";

const user = (seq: number, text: string): HistoryMessage => ({ seq, role: "user", text });
const answer = (seq: number, text: string, calls: string[] = []): HistoryMessage =>
  ({ seq, role: "assistant", text, toolCalls: calls.map((name, i) => ({ callId: `c${seq}${i}`, name, arguments: {} })) }) as HistoryMessage;

test("the person's messages and Hearth's answers, with the calls it made named; tool outputs and system text left out", () => {
  const carried = carriedConversation([
    { seq: 0, role: "system", text: "instructions" },
    user(1, "fix the build"),
    answer(2, "", ["read_file"]),
    { seq: 3, role: "tool", callId: "c20", name: "read_file", ok: true, output: "SECRET FILE BODY" } as HistoryMessage,
    answer(4, "Done: the import was wrong."),
  ]);
  assert.equal(
    carried,
    "The conversation so far, from an earlier chat:\n\nPerson: fix the build\n\nHearth: (called read_file)\n\nHearth: Done: the import was wrong.",
  );
});

test("a long conversation keeps its newest messages and says the earlier ones were left out", () => {
  const messages = Array.from({ length: 40 }, (_, i) => user(i, `message ${i} ${"x".repeat(50)}`));
  const carried = carriedConversation(messages, 600)!;
  assert.ok(carried.length <= 600 + 40, `bounded: ${carried.length}`);
  assert.match(carried, /\(earlier messages left out\)\n\nPerson: message \d+/);
  assert.ok(carried.endsWith(`message 39 ${"x".repeat(50)}`), "the newest message is kept");
  assert.doesNotMatch(carried, /message 0 /);
});

test("nothing to carry from a chat without messages", () => {
  assert.equal(carriedConversation([{ seq: 0, role: "system", text: "instructions" }]), null);
});

test("one very long message (a big paste) is cut in the carried text instead of leaving out everything before it", () => {
  const paste = `summarize this\n${"2026-12-01 [info] a long log line\n".repeat(2_000)}`;
  const carried = carriedConversation([user(1, "Plan the parser"), answer(2, "Use a table."), user(3, paste), user(4, "one more")])!;
  assert.ok(carried.length <= 16_000, `bounded: ${carried.length}`);
  assert.match(
    carried,
    /^The conversation so far, from an earlier chat:\n\nPerson: Plan the parser\n\nHearth: Use a table\.\n\nPerson: summarize this\n/,
  );
  assert.match(carried, /… \[\d{2},\d{3} more characters not carried\]\n\nPerson: one more$/);
  assert.doesNotMatch(carried, /earlier messages left out/);
});

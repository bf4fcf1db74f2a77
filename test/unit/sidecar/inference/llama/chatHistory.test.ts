import assert from "node:assert/strict";
import { test } from "node:test";
import { toChatHistory, toGbnfSchema } from "../../../../../sidecar/inference/llama/chatHistory.js";

test("tool results are rendered with the call that made them, paired by kernel-minted call id (harness #1, #3)", () => {
  const history = toChatHistory([
    { role: "system", text: "sys" },
    { role: "user", text: "hi" },
    {
      role: "assistant",
      text: "checking",
      reasoning: "think",
      toolCalls: [
        { callId: "k1", name: "f", arguments: { a: 1 } },
        { callId: "k2", name: "g", arguments: {} },
      ],
    },
    { role: "tool", callId: "k2", name: "g", output: "two" },
    { role: "tool", callId: "k1", name: "f", output: "one" },
  ]);
  assert.deepEqual(history, [
    { type: "system", text: "sys" },
    { type: "user", text: "hi" },
    {
      type: "model",
      response: [
        { type: "segment", segmentType: "thought", text: "think", ended: true },
        "checking",
        { type: "functionCall", name: "f", params: { a: 1 }, result: "one" },
        { type: "functionCall", name: "g", params: {}, result: "two" },
      ],
    },
  ]);
  assert.throws(
    () => toChatHistory([{ role: "assistant", text: "", toolCalls: [{ callId: "x", name: "f", arguments: {} }] }]),
    /no tool result/,
  );
});

test("the bounded schema vocabulary maps onto the grammar schema without loss (harness #5)", () => {
  assert.deepEqual(
    toGbnfSchema({
      type: "object",
      properties: {
        p: { type: "string", maxLength: 10 },
        e: { type: "string", enum: ["a", "b"] },
        n: { type: "array", items: { type: "integer" }, maxItems: 3 },
      },
      required: ["p"],
    }),
    {
      type: "object",
      properties: {
        p: { type: "string", maxLength: 10 },
        e: { enum: ["a", "b"] },
        n: { type: "array", items: { type: "integer" }, maxItems: 3 },
      },
      required: ["p"],
      additionalProperties: false,
    },
  );
});

test("an integer range of at most 64 values is written as an enum, so the grammar enforces its bounds; a wider one stays the check's (harness #5, issue 13)", () => {
  assert.deepEqual(toGbnfSchema({ type: "integer", description: "levels", minimum: 1, maximum: 3 }), {
    enum: [1, 2, 3],
    description: "levels",
  });
  assert.deepEqual(toGbnfSchema({ type: "integer", minimum: 0, maximum: 63 }), { enum: Array.from({ length: 64 }, (_, i) => i) });
  assert.deepEqual(toGbnfSchema({ type: "integer", minimum: 100, maximum: 600_000 }), { type: "integer" });
  assert.deepEqual(toGbnfSchema({ type: "integer", minimum: 1 }), { type: "integer" });
  assert.deepEqual(toGbnfSchema({ type: "number", minimum: 0, maximum: 1 }), { type: "number" });
});

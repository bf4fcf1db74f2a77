import assert from "node:assert/strict";
import { test } from "node:test";
import { toChatHistory, toGbnfSchema } from "../../../sidecar/inference/llama/chatHistory.js";

test("tool results are rendered with the call that made them, paired by kernel-minted call id (spec 000 #1, #3)", () => {
  const history = toChatHistory([
    { role: "system", text: "sys" },
    { role: "user", text: "hi" },
    { role: "assistant", text: "checking", reasoning: "think", toolCalls: [{ callId: "k1", name: "f", arguments: { a: 1 } }, { callId: "k2", name: "g", arguments: {} }] },
    { role: "tool", callId: "k2", name: "g", output: "two" },
    { role: "tool", callId: "k1", name: "f", output: "one" },
  ]);
  assert.deepEqual(history, [
    { type: "system", text: "sys" },
    { type: "user", text: "hi" },
    { type: "model", response: [
      { type: "segment", segmentType: "thought", text: "think", ended: true },
      "checking",
      { type: "functionCall", name: "f", params: { a: 1 }, result: "one" },
      { type: "functionCall", name: "g", params: {}, result: "two" },
    ] },
  ]);
  assert.throws(() => toChatHistory([{ role: "assistant", text: "", toolCalls: [{ callId: "x", name: "f", arguments: {} }] }]), /no tool result/);
});

test("the bounded schema vocabulary maps onto the grammar schema without loss (spec 000 #5)", () => {
  assert.deepEqual(toGbnfSchema({ type: "object", properties: { p: { type: "string", maxLength: 10 }, e: { type: "string", enum: ["a", "b"] }, n: { type: "array", items: { type: "integer" }, maxItems: 3 } }, required: ["p"] }), {
    type: "object",
    properties: { p: { type: "string", maxLength: 10 }, e: { enum: ["a", "b"] }, n: { type: "array", items: { type: "integer" }, maxItems: 3 } },
    required: ["p"], additionalProperties: false,
  });
});

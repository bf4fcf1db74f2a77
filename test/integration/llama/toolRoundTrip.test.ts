// Real native inference through the llama adapter on the synthetic tool-call model (docs/models.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { llamaModelForFile } from "../../support/llamaModel.js";
import type { RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import type { GenerationRequest, ModelChunk, ModelMessage, ModelToolDefinition } from "../../../sidecar/agent/ports/model.js";
import { TOOL_MODEL_ANSWER } from "../../fixtures/models.js";

const tools: ModelToolDefinition[] = [
  {
    name: "get_weather",
    description: "Get the weather for a city",
    parameters: { type: "object", properties: { city: { type: "string", enum: ["Paris", "Tokyo", "Lima"] } }, required: ["city"] },
  },
];

const stats: RoundStats[] = [];
const llama = llamaModelForFile((paths) => ({
  modelPath: paths.tool,
  threads: 1,
  contextSize: 2048,
  maxSessions: 3,
  batchSize: 32,
  stateStore: null,
  onRoundStats: (s) => stats.push(s),
}));

function request(sessionKey: string, messages: ModelMessage[], signal = new AbortController().signal): GenerationRequest {
  return { sessionKey, messages, tools, options: { maxTokens: 64 }, signal };
}

test("a tool call is returned to the harness, not executed, and the answer after its result streams in chunks (harness #1, #3)", async () => {
  const user: ModelMessage[] = [
    { role: "system", text: "You answer weather questions." },
    { role: "user", text: "What is the weather in Paris?" },
  ];
  const first = await llama.model.generate(request("s1", user), () => undefined);
  assert.equal(first.stopReason, "tool_calls");
  assert.ok(first.toolCalls.length >= 1);
  for (const call of first.toolCalls) {
    assert.equal(call.name, "get_weather");
    assert.ok(["Paris", "Tokyo", "Lima"].includes((call.arguments as { city: string }).city), JSON.stringify(call.arguments));
  }
  const calls = first.toolCalls.map((c, i) => ({ callId: `call-${i}`, name: c.name, arguments: c.arguments }));

  const chunks: ModelChunk[] = [];
  const followUp: ModelMessage[] = [
    ...user,
    { role: "assistant", text: first.text, toolCalls: calls },
    ...calls.map((c): ModelMessage => ({ role: "tool", callId: c.callId, name: c.name, output: JSON.stringify({ tempC: 21 }) })),
  ];
  const second = await llama.model.generate(request("s1", followUp), (c) => chunks.push(c));
  assert.equal(second.stopReason, "end");
  assert.deepEqual(second.toolCalls, []);
  assert.equal(second.text, TOOL_MODEL_ANSWER);
  assert.ok(chunks.length >= 2, `expected the answer in several chunks, got ${JSON.stringify(chunks)}`);
  assert.ok(chunks.every((c) => c.type === "answer"));
  assert.equal(chunks.map((c) => c.text).join(""), second.text);
  // The session kept its sequence: the second round evaluated only the new tokens (issue 6: KV reuse).
  const [r1, r2] = stats.slice(-2) as [RoundStats, RoundStats];
  assert.ok(r2.reusedTokens >= r1.promptTokens - 1, `round 2 reused ${r2.reusedTokens} of round 1's ${r1.promptTokens} prompt tokens`);
  assert.ok(r2.prefillEvaluatedTokens < r2.promptTokens - r1.promptTokens + 8, JSON.stringify(r2));
});

test("if onChunk throws, generation stops and rejects with that error (harness #18)", async () => {
  const boom = new Error("renderer failed");
  const messages: ModelMessage[] = [
    { role: "user", text: "What is the weather?" },
    { role: "assistant", text: "", toolCalls: [{ callId: "c", name: "get_weather", arguments: { city: "Lima" } }] },
    { role: "tool", callId: "c", name: "get_weather", output: "sunny" },
  ];
  let calls = 0;
  await assert.rejects(
    llama.model.generate(request("s2", messages), () => {
      calls++;
      throw boom;
    }),
    (e) => e === boom,
  );
  assert.equal(calls, 1, "no chunk is delivered after onChunk threw");
  // The barrier held: the session takes its next round normally.
  const again = await llama.model.generate(request("s2", messages), () => undefined);
  assert.equal(again.text, TOOL_MODEL_ANSWER);
});

test("an abort during prefill rejects with the signal's reason and keeps the evaluated prefix (harness #22)", async () => {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i} of a long file`).join("\n");
  const messages: ModelMessage[] = [{ role: "user", text: long }];
  const ac = new AbortController();
  const reason = new Error("user cancelled");
  setImmediate(() => ac.abort(reason));
  await assert.rejects(
    llama.model.generate(request("s3", messages, ac.signal), () => undefined),
    (e) => e === reason,
  );
  const cancelled = stats.at(-1)!;
  assert.ok(cancelled.generatedTokens === 0, "no token was generated after the abort");
  await llama.model.generate(request("s3", messages), () => undefined);
  const next = stats.at(-1)!;
  assert.ok(next.reusedTokens > 0 && next.reusedTokens < next.promptTokens, `reused ${next.reusedTokens} of ${next.promptTokens}`);
});

test("sessions making tool calls at once, in lockstep, each get their call and their answer (issue 6, item 4; harness #18)", async () => {
  const gate = (llama.model as unknown as { gate: { released: { together: number; timedOut: number; shared: number } } }).gate;
  const before = { ...gate.released };
  const asks = ["Paris", "Tokyo"].map((city): ModelMessage[] => [{ role: "user", text: `What is the weather in ${city}?` }]);
  const firsts = await Promise.all(asks.map((m, i) => llama.model.generate(request(`both${i}`, m), () => undefined)));
  const followUps = firsts.map((first, i): ModelMessage[] => {
    assert.equal(first.stopReason, "tool_calls");
    const calls = first.toolCalls.map((c, j) => ({ callId: `c${i}-${j}`, name: c.name, arguments: c.arguments }));
    return [
      ...asks[i]!,
      { role: "assistant", text: first.text, toolCalls: calls },
      ...calls.map((c): ModelMessage => ({ role: "tool", callId: c.callId, name: c.name, output: "sunny" })),
    ];
  });
  const answers = await Promise.all(followUps.map((m, i) => llama.model.generate(request(`both${i}`, m), () => undefined)));
  assert.deepEqual(
    answers.map((a) => a.text),
    [TOOL_MODEL_ANSWER, TOOL_MODEL_ANSWER],
  );
  // Grammar-constrained calls decode token by token too; the gate released every step without its timeout.
  assert.equal(gate.released.timedOut, before.timedOut);
  assert.ok(gate.released.shared - before.shared >= 10, `${gate.released.shared - before.shared} decode steps carried both sessions`);
});

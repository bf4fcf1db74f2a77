// Saved KV state survives an engine restart: a fresh adapter resumes a session without
// re-evaluating its history (issue 6, item 2), and refuses a state that does not match.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { LlamaAgentModel, type RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { KvStateStore } from "../../../sidecar/inference/llama/kvStateStore.js";
import type { GenerationRequest, ModelMessage, ModelToolDefinition } from "../../../sidecar/agent/ports/model.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";

const tools: ModelToolDefinition[] = [
  {
    name: "get_weather",
    description: "Get the weather for a city",
    parameters: { type: "object", properties: { city: { type: "string", enum: ["Paris", "Tokyo", "Lima"] } }, required: ["city"] },
  },
];
const history = Array.from({ length: 12 }, (_, i) => `Earlier note ${i}: the build passed and the tests were green.`).join("\n");

let dir: string;
let modelPath: string;
before(() => {
  modelPath = ensureFixtureModels().tool;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-kv-"));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const req = (messages: ModelMessage[]): GenerationRequest => ({
  sessionKey: "session-a",
  messages,
  tools,
  options: { maxTokens: 64 },
  signal: new AbortController().signal,
});

async function open(stats: RoundStats[], store: KvStateStore | null) {
  return LlamaAgentModel.load({
    modelPath,
    threads: 1,
    contextSize: 2048,
    maxSessions: 2,
    stateStore: store,
    onRoundStats: (s) => stats.push(s),
  });
}

test("a restarted engine resumes a session from saved state without re-evaluating its history (issue 6; harness #22)", async () => {
  const store = new KvStateStore(path.join(dir, "state"), 256 << 20);
  const user: ModelMessage[] = [{ role: "user", text: `${history}\nWhat is the weather in Paris?` }];

  const beforeRestart: RoundStats[] = [];
  const first = await open(beforeRestart, store);
  const round1 = await first.generate(req(user), () => undefined);
  assert.equal(round1.stopReason, "tool_calls");
  await first.dispose(); // the kernel stops: every session's state is saved
  assert.equal(store.entries().length, 1);

  const calls = round1.toolCalls.map((c, i) => ({ callId: `c${i}`, name: c.name, arguments: c.arguments }));
  const resume: ModelMessage[] = [
    ...user,
    { role: "assistant", text: round1.text, toolCalls: calls },
    ...calls.map((c): ModelMessage => ({ role: "tool", callId: c.callId, name: c.name, output: "21 C" })),
  ];

  const afterRestart: RoundStats[] = [];
  const second = await open(afterRestart, store);
  const round2 = await second.generate(req(resume), () => undefined);
  await second.dispose();
  assert.equal(round2.text, TOOL_MODEL_ANSWER);
  const resumed = afterRestart[0]!;
  const historyTokens = beforeRestart[0]!.promptTokens;
  assert.ok(resumed.restoredTokens >= historyTokens, `restored ${resumed.restoredTokens} tokens of a ${historyTokens}-token history`);
  assert.ok(
    resumed.prefillEvaluatedTokens <= resumed.promptTokens - historyTokens,
    `evaluated ${resumed.prefillEvaluatedTokens} of ${resumed.promptTokens} prompt tokens`,
  );

  // The anchor: without saved state the same round re-evaluates the whole prompt.
  const coldStats: RoundStats[] = [];
  const cold = await open(coldStats, null);
  const round2cold = await cold.generate(req(resume), () => undefined);
  await cold.dispose();
  assert.equal(round2cold.text, round2.text, "the restored cache gives the same answer as a full prefill");
  assert.equal(coldStats[0]!.restoredTokens, 0);
  assert.ok(coldStats[0]!.prefillEvaluatedTokens >= resumed.promptTokens - 1);
});

test("saved state of another chat wrapper or model is not restored (issue 6: keyed by model, wrapper and history)", async () => {
  const store = new KvStateStore(path.join(dir, "state"), 256 << 20);
  const prompt = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
  await store.save({ sessionKey: "x", modelKey: "m1", wrapper: "Qwen", tokens: prompt }, async (f) => fs.writeFileSync(f, "state"));
  assert.equal(store.find("m1", "ChatML", prompt), null);
  assert.equal(store.find("m2", "Qwen", prompt), null);
  assert.equal(store.find("m1", "Qwen", [9, ...prompt]), null, "a history that differs from its first token shares nothing");
  assert.equal(store.find("m1", "Qwen", prompt)?.commonPrefix, prompt.length);
});

test("saved state is restored only into a context of the same layout: one saved with another number of sequences is passed over for one that loads (issue 6, item 2)", async () => {
  const store = new KvStateStore(path.join(dir, "layout"), 256 << 20);
  const user: ModelMessage[] = [{ role: "user", text: `${history}\nWhat is the weather in Paris?` }];
  const load = (maxSessions: number, stats: RoundStats[]) =>
    LlamaAgentModel.load({ modelPath, threads: 1, contextSize: 2048, maxSessions, stateStore: store, onRoundStats: (s) => stats.push(s) });
  const ask = (sessionKey: string, messages: ModelMessage[]) => ({ ...req(messages), sessionKey, options: { maxTokens: 4 } });

  // A three-sequence engine saves the history; a two-sequence one saves a longer state sharing it.
  const three = await load(3, []);
  await three.generate(ask("short", user), () => undefined);
  await three.dispose();
  const longer: ModelMessage[] = [...user, { role: "assistant", text: "Let me check.", toolCalls: [] }, { role: "user", text: "Go on." }];
  const two = await load(2, []);
  await two.generate(ask("long", longer), () => undefined);
  await two.dispose();
  assert.equal(store.entries().length, 2);

  // The longest match cannot load into a three-sequence context; the shorter one can, and is used.
  const stats: RoundStats[] = [];
  const again = await load(3, stats);
  await again.generate(
    ask("resumed", [...longer, { role: "assistant", text: "Done.", toolCalls: [] }, { role: "user", text: "And?" }]),
    () => undefined,
  );
  await again.dispose();
  assert.ok(stats[0]!.restoredTokens > 100, `restored ${stats[0]!.restoredTokens} tokens: ${JSON.stringify(stats[0])}`);
});

// A fork's first turn restores the original's cache of the shared prefix and evaluates only what
// follows it (issue 29 item 2), through the real llama adapter on the synthetic tool model. The
// original is still live in the engine, its state not yet saved (its idle save is far off): opening
// the fork saves it first. Evaluated tokens are counted, never timed.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { LlamaAgentModel, type RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { KvStateStore } from "../../../sidecar/inference/llama/kvStateStore.js";
import type { GenerationRequest, ModelMessage } from "../../../sidecar/agent/ports/model.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const history = Array.from({ length: 12 }, (_, i) => `Earlier note ${i}: the build passed and the tests were green.`).join("\n");

let dir: string;
let modelPath: string;
before(() => {
  modelPath = ensureFixtureModels().tool;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-fork-kv-"));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const req = (sessionKey: string, messages: ModelMessage[]): GenerationRequest => ({
  sessionKey,
  messages,
  tools: [],
  options: { maxTokens: 8 },
  signal: new AbortController().signal,
});

const load = (stats: RoundStats[], stateStore: KvStateStore | null) =>
  LlamaAgentModel.load({
    modelPath,
    threads: 1,
    contextSize: 2048,
    maxSessions: 2,
    idleSaveMs: 600_000,
    stateStore,
    onRoundStats: (s) => stats.push(s),
  });

test("a fork's first turn through the real llama adapter evaluates only the tokens after the original's shared prefix (issue 29 item 2)", async () => {
  const stats: RoundStats[] = [];
  const engine = await load(stats, new KvStateStore(path.join(dir, "state"), 256 << 20));
  const first: ModelMessage[] = [{ role: "user", text: `${history}\nSummarize the notes.` }];
  const answer = await engine.generate(req("original", first), () => undefined);
  const prefix: ModelMessage[] = [...first, { role: "assistant", text: answer.text, toolCalls: [] }];
  await engine.generate(req("original", [...prefix, { role: "user", text: "Now list the failing tests." }]), () => undefined);

  // The fork: the original's history before its second message, then a different message.
  await engine.generate(req("fork", [...prefix, { role: "user", text: "Which note mentions the build?" }]), () => undefined);
  await engine.dispose();
  const [firstRound, , fork] = stats;
  assert.ok(
    fork!.restoredTokens >= firstRound!.promptTokens,
    `restored ${fork!.restoredTokens} of the ${firstRound!.promptTokens}-token first prompt`,
  );
  assert.equal(fork!.reusedTokens, fork!.restoredTokens, "the restored cache is the shared prefix, what lay past it erased");
  assert.equal(
    fork!.prefillEvaluatedTokens,
    fork!.promptTokens - fork!.reusedTokens,
    "only the tokens past the shared prefix are evaluated",
  );
  assert.ok(
    fork!.prefillEvaluatedTokens < fork!.promptTokens - firstRound!.promptTokens + 8,
    `evaluated ${fork!.prefillEvaluatedTokens} of ${fork!.promptTokens} prompt tokens`,
  );

  // The anchor: with no saved state, the same fork evaluates its whole prompt.
  const coldStats: RoundStats[] = [];
  const cold = await load(coldStats, null);
  await cold.generate(req("fork", [...prefix, { role: "user", text: "Which note mentions the build?" }]), () => undefined);
  await cold.dispose();
  assert.equal(coldStats[0]!.restoredTokens, 0);
  assert.ok(coldStats[0]!.prefillEvaluatedTokens >= fork!.promptTokens - 1);
});

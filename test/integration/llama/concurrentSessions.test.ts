// Concurrent sessions share the one model, each on its own sequence (issue 6, item 4).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { LlamaAgentModel, type RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { KvStateStore } from "../../../sidecar/inference/llama/kvStateStore.js";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

let model: LlamaAgentModel;
let dir: string;
const stats: RoundStats[] = [];
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-conc-"));
  model = await LlamaAgentModel.load({
    modelPath: ensureFixtureModels().chat, threads: 1, contextSize: 512, maxSessions: 2, lockstepTurns: 2,
    stateStore: new KvStateStore(dir, 64 << 20), onRoundStats: (s) => stats.push(s),
  });
});
after(async () => { await model?.dispose(); fs.rmSync(dir, { recursive: true, force: true }); });

const req = (sessionKey: string, text: string): GenerationRequest => ({ sessionKey, messages: [{ role: "user", text }], tools: [], options: { maxTokens: 24, temperature: 0 }, signal: new AbortController().signal });

test("sessions generating at once in lockstep give the same greedy text as each alone (issue 6, item 4; spec 000 #18)", async () => {
  const aloneA = await model.generate(req("a1", "the quick brown fox"), () => undefined);
  const aloneB = await model.generate(req("b1", "import fs from node"), () => undefined);
  const [a, b] = await Promise.all([model.generate(req("a2", "the quick brown fox"), () => undefined), model.generate(req("b2", "import fs from node"), () => undefined)]);
  assert.equal(a.text, aloneA.text);
  assert.equal(b.text, aloneB.text);
  assert.notEqual(a.text, b.text, "the two prompts give different answers, so mixing them up would show");
});

test("a third session takes the least recently used idle session's sequence after saving its state (issue 6, items 2 and 4)", async () => {
  await model.generate(req("s1", "first session text"), () => undefined);
  await model.generate(req("s2", "second session text"), () => undefined);
  await model.generate(req("s3", "third session text"), () => undefined);
  // s1 was closed to make room; reopening it restores its saved state instead of re-evaluating.
  await model.generate(req("s1", "first session text"), () => undefined);
  const reopened = stats.at(-1)!;
  assert.ok(reopened.restoredTokens > 0, JSON.stringify(reopened));
  assert.ok(reopened.prefillEvaluatedTokens <= 1, JSON.stringify(reopened));
});

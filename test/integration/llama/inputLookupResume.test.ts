// Saved state after input-lookup decoding (issue 30, item 1): a round that stops while confirmed guesses
// still sit in its KV cache (maxTokens reached in the middle of a copy) leaves cells past the tokens
// node-llama-cpp reports. Its saveStateToFile writes every cell of the sequence but lists only the
// reported tokens, so a restored session's next token went to a position llama.cpp had already filled
// and it refused the step ("Eval has failed": the condensing summary after a restart in
// longConversation.test.ts). Invariant: a session saved after predicting resumes and answers as one that
// never predicted.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { GenerationRequest, ModelMessage } from "../../../sidecar/agent/ports/model.js";
import { KvStateStore } from "../../../sidecar/inference/llama/kvStateStore.js";
import { LlamaAgentModel, type RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { COPY_MODEL_ANSWER, ensureFixtureModels } from "../../fixtures/models.js";

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-lookup-kv-"));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const open = (store: KvStateStore, stats: RoundStats[]) =>
  LlamaAgentModel.load({
    modelPath: ensureFixtureModels().copy,
    threads: 1,
    contextSize: 1024,
    maxSessions: 2,
    batchSize: 64,
    stateStore: store,
    inputLookup: true,
    onRoundStats: (s) => stats.push(s),
  });

const request = (messages: ModelMessage[], maxTokens: number): GenerationRequest => ({
  sessionKey: "copying",
  messages,
  tools: [],
  options: { maxTokens },
  signal: new AbortController().signal,
});

test("a session saved while confirmed guesses were still in its cache resumes after a restart and answers as without prediction", async () => {
  const store = new KvStateStore(path.join(dir, "state"), 256 << 20);
  const first: ModelMessage[] = [
    { role: "system", text: "Repeat what you are given." },
    { role: "user", text: `Repeat: ${COPY_MODEL_ANSWER}` },
  ];
  const stats: RoundStats[] = [];
  const before = await open(store, stats);
  // Cut off in the middle of the copy: the guesses confirmed for the tokens after the cut stay loaded.
  const cut = await before.generate(request(first, 8), () => undefined);
  assert.equal(cut.stopReason, "max_tokens");
  assert.ok(stats[0]!.predictedTokens.validated > 0, `guesses were confirmed: ${JSON.stringify(stats[0])}`);
  await before.dispose(); // the kernel stops: the session's state is saved
  assert.equal(store.entries().length, 1);

  const next: ModelMessage[] = [
    ...first,
    { role: "assistant", text: cut.text, toolCalls: [] },
    { role: "user", text: `Repeat: ${COPY_MODEL_ANSWER}` },
  ];
  const after: RoundStats[] = [];
  const resumed = await open(store, after);
  try {
    const round = await resumed.generate(request(next, 64), () => undefined);
    assert.ok(after[0]!.restoredTokens > 0, `the session resumed from its saved state: ${JSON.stringify(after[0])}`);
    assert.equal(round.text, COPY_MODEL_ANSWER);
  } finally {
    await resumed.dispose();
  }
});

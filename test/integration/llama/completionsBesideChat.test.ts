// Completions as you type beside a chat on the same model (issue 31, item 3): a person typing must not
// halve the chat's answer. Real node-llama-cpp on the synthetic FIM model, through the kernel's ModelHost.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import type { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { BACKGROUND_EVERY } from "../../../sidecar/inference/llama/lockstepGate.js";
import { ModelHost } from "../../../sidecar/kernel/model/modelHost.js";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { recordBatches } from "../../support/llamaBatches.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-beside-"));
const { fim } = ensureFixtureModels();
const host = new ModelHost({
  stateDir: path.join(dir, "kv"),
  modelsDir: path.join(dir, "models"),
  threads: 1,
  contextSize: 2048,
  maxSessions: 2,
});
before(() => host.load(fim));
after(async () => {
  await host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const suffix = "\n}\n";
const prefix = "function add(a: number, b: number): number {\n  ";
/** A window the completions' session has not seen: its whole prompt is evaluated unless a cancelled request did it already. */
const fresh = (tag: string) => `${Array.from({ length: 50 }, (_, i) => `let ${tag}${i} = ${i};`).join("\n")}\n${prefix}`;

/** A chat round that runs until `stop` aborts it (the fixture's answers run to the token cap). */
function chatRunning(): { stop(): Promise<void>; firstToken: Promise<void> } {
  const abort = new AbortController();
  let started: () => void = () => undefined;
  const firstToken = new Promise<void>((resolve) => {
    started = resolve;
  });
  const request: GenerationRequest = {
    sessionKey: "chat",
    messages: [{ role: "user", text: "tell me a long story" }],
    tools: [],
    options: { maxTokens: 1500, temperature: 0 },
    signal: abort.signal,
  };
  const round = host.current().generate(request, () => started());
  return {
    firstToken,
    async stop() {
      abort.abort(new Error("test over"));
      await round.catch(() => undefined);
      await host.settled("chat");
    },
  };
}

test("a keystroke cancelled while a chat answers costs no evaluation: completions wait before native work while a chat runs", async () => {
  const chat = chatRunning();
  await chat.firstToken;
  const abort = new AbortController();
  const typedOn = host.infill({ prefix: fresh("typed"), suffix, maxTokens: 16, signal: abort.signal });
  // The next keystroke, as the editor sends it after its own 120 ms pause.
  await new Promise((resolve) => setTimeout(resolve, 120));
  abort.abort(new Error("typed on"));
  await assert.rejects(typedOn, /typed on/);
  await chat.stop();
  const again = await host.infill({ prefix: fresh("typed"), suffix, maxTokens: 16, signal: new AbortController().signal });
  // Invariant: nothing of the cancelled window entered the completions' cache, so all of it is evaluated now.
  assert.ok(again.evaluatedTokens > 10 * again.reusedTokens, `the cancelled request evaluated nothing: ${JSON.stringify(again)}`);
});

test("a completion made while a chat answers decodes in a bounded share of the chat's steps and writes the same middle as alone", async () => {
  const alone = await host.infill({ prefix: fresh("alone"), suffix, maxTokens: 16, signal: new AbortController().signal });
  assert.equal(alone.text, FIM_MODEL_MIDDLE);
  const chat = chatRunning();
  await chat.firstToken;
  const batches = recordBatches(host.current() as LlamaAgentModel);
  const beside = await host.infill({ prefix: fresh("beside"), suffix, maxTokens: 16, signal: new AbortController().signal });
  const seen = batches.length;
  await chat.stop();
  assert.equal(beside.text, alone.text, "the shared steps change no token of the middle");
  // Invariant: each one-token step of the completion carries the chat's token too (one batch, not a step
  // of its own between the chat's): on 2 cores a step of two tokens costs ~1.6x one, two steps 2x.
  const oneTokenSteps = batches.slice(0, seen).filter((b) => b.sequences.length === b.tokens && b.tokens <= 2);
  const isShared = (b: { sequences: number[] }) => new Set(b.sequences).size === 2;
  const shared = oneTokenSteps.filter(isShared).length;
  // Invariant: a bounded share. Between its first and last token the completion joins at most one of
  // the chat's steps in BACKGROUND_EVERY, so the chat keeps most of its rate while it runs.
  const during = oneTokenSteps.slice(oneTokenSteps.findIndex(isShared), oneTokenSteps.findLastIndex(isShared) + 1);
  const chatAlone = during.filter((b) => !isShared(b)).length;
  assert.ok(
    chatAlone >= (BACKGROUND_EVERY - 1) * (shared - 1),
    `the chat took ${chatAlone} steps alone between the completion's ${shared} (${JSON.stringify(during)})`,
  );
  assert.ok(
    shared >= beside.generatedTokens - 1,
    `${shared} of the completion's ${beside.generatedTokens} tokens shared a step with the chat (${JSON.stringify(oneTokenSteps.slice(0, 40))})`,
  );
});

// Condensing instead of dying (issue 13, item 3) through a real kernel: 60 scripted turns on the
// synthetic chat model in a 2,048-token context. Every turn completes, the journal keeps every
// original message, condensations are journaled naming the range they replace, a restarted kernel
// resumes with the same view, and `session/compact` condenses on demand.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { restartableKernelOptions, startTestKernel, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

// The system prompt and every tool definition alone take more than 2,048 tokens: two tools leave room for turns.
const TURNS = 60;

it("60 turns in a 2,048-token context all complete; the journal keeps every message; condensations are journaled and survive a restart (issue 13, item 3)", async () => {
  const models = ensureFixtureModels();
  const shared = restartableKernelOptions("long", { HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: "2048", HEARTH_TOOLS: "read_file,list_dir" });
  let k = startTestKernel(shared);
  kernels.push(k);
  await k.client.initialize("test", "0");
  let driver = new TurnDriver(k.client);
  const { sessionId } = await k.client.request("session/create", { model: models.chat, options: { maxTokens: 24 } });
  const asked: string[] = [];
  for (let i = 0; i < TURNS; i++) {
    const message = `Turn ${i}: please remember that box ${i} holds ${i * 7} marbles and a note about item ${i}.`;
    asked.push(message);
    const { turnId } = await k.client.request("turn/start", { sessionId, message });
    const done = await driver.completion(turnId);
    assert.equal(done.status, "completed", `turn ${i}: ${JSON.stringify(done)}`);
    assert.ok(
      done.context && done.context.usedTokens <= 2048 && done.context.contextSize === 2048,
      `turn ${i}: ${JSON.stringify(done.context)}`,
    );
  }
  const history = await k.client.request("session/history", { sessionId });
  const users = history.messages.filter((m) => m.role === "user").map((m) => (m as { text: string }).text);
  assert.deepEqual(users, asked, "the journal holds every original message");
  assert.equal(history.messages.filter((m) => m.role === "assistant").length, TURNS);
  assert.ok(history.condensations.length >= 1, "the session was condensed");
  const last = history.condensations.at(-1)!;
  assert.equal(last.trigger, "automatic");
  assert.equal(last.fromSeq, 1);
  assert.ok(last.throughSeq !== null && last.throughSeq < history.messages.at(-1)!.seq && last.summary, JSON.stringify(last));
  assert.ok(last.tokensAfter < last.tokensBefore, JSON.stringify(last));

  // A restarted kernel resumes with the journaled view: the next turn needs no new condensation.
  await k.client.request("kernel/shutdown", undefined);
  await k.exited;
  k = startTestKernel(shared);
  kernels.push(k);
  await k.client.initialize("test", "0");
  driver = new TurnDriver(k.client);
  const again = await k.client.request("turn/start", { sessionId, message: "And one more." });
  assert.equal((await driver.completion(again.turnId)).status, "completed");
  const resumed = await k.client.request("session/history", { sessionId });
  assert.ok(resumed.condensations.length <= history.condensations.length + 1);

  // On demand: everything but the last turn into one summary.
  const { condensation } = await k.client.request("session/compact", { sessionId });
  assert.ok(condensation, "session/compact condensed the session");
  assert.equal(condensation.trigger, "on_demand");
  const lastUser = resumed.messages.filter((m) => m.role === "user").at(-1)!;
  assert.equal(condensation.throughSeq, lastUser.seq - 1, "everything before the last turn is summarised");
});

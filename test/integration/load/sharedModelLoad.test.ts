// Found by the load test (issue 16, item 2): sessions of one GGUF model whose first turns start at
// once share the one load. The second turn used to wait for the first's load and then unload and
// reload the same model, so the first turn found no model loaded and failed.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

/** One session per model spec, all first turns started at once; returns the kernel and each turn's completion. */
async function firstTurnsAtOnce(modelSpecs: string[]) {
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_TOOLS: "none" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client);
  const sessions = await Promise.all(
    modelSpecs.map((model) => k.client.request("session/create", { model, options: { maxTokens: 8, temperature: 0 } })),
  );
  const runs = await Promise.all(sessions.map(({ sessionId }) => k.client.request("turn/start", { sessionId, message: "Hello there." })));
  return { k, done: await Promise.all(runs.map(({ turnId }) => driver.completion(turnId))) };
}

it("first turns of two sessions on one model, started at once, both complete on one load (issue 6: one model per kernel)", async () => {
  const models = ensureFixtureModels();
  const { k, done } = await firstTurnsAtOnce([models.chat, models.chat]);
  assert.deepEqual(
    done.map((d) => d.status),
    ["completed", "completed"],
    JSON.stringify(done),
  );
  assert.equal(k.stderr.filter((l) => l.includes("model loaded:")).length, 1, `the model loaded more than once:\n${k.stderr.join("\n")}`);
});

// The kernel has one model slot: a turn holds its model for its whole life (ModelHost.lease), so a
// second session's turn on another model waits for it instead of unloading it under the first turn
// (which failed with "no model is loaded" before the lease).
it("first turns of two sessions on two models, started at once, both complete: the second waits for the first's model to be free (issue 6: one model per kernel)", async () => {
  const models = ensureFixtureModels();
  const { done } = await firstTurnsAtOnce([models.chat, models.tool]);
  assert.deepEqual(
    done.map((d) => d.status),
    ["completed", "completed"],
    JSON.stringify(done),
  );
});

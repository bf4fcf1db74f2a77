// A turn whose answer reached the token cap says so (issue 25, item 10): the real node-llama-cpp round
// on the copy model, through the whole kernel, with a cap below its answer and one above it.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { COPY_MODEL_ANSWER, ensureFixtureModels } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("the completed event of an answer cut at the token cap carries stoppedAtTokenCap; a finished one does not (issue 25, item 10)", async () => {
  const models = ensureFixtureModels();
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_TOOLS: "none" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client, () => ({ decision: "deny", reason: "no tools in this test" }));
  const turn = async (maxTokens: number) => {
    const { sessionId } = await k.client.request("session/create", { model: models.copy, options: { maxTokens } });
    const { runId } = await k.client.request("turn/start", { sessionId, message: "Spell the alphabet." });
    return { done: await driver.completion(runId), text: driver.answerText(runId) };
  };
  const cut = await turn(4);
  assert.equal(cut.done.status, "completed", JSON.stringify(cut.done));
  assert.equal(cut.done.stoppedAtTokenCap, true, "the answer stopped at the cap");
  assert.ok(cut.text.length > 0 && COPY_MODEL_ANSWER.startsWith(cut.text.trim()), `a prefix of the answer: ${cut.text}`);

  const whole = await turn(512);
  assert.equal(whole.done.status, "completed", JSON.stringify(whole.done));
  assert.equal(whole.done.stoppedAtTokenCap, undefined, "a finished answer is not flagged");
  assert.equal(whole.text.trim(), COPY_MODEL_ANSWER);
});

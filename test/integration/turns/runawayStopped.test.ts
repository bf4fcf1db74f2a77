// The runaway of issue 13 through a real kernel: the synthetic tool-call model keeps calling list_dir
// on a folder that does not exist. The loop guard stops the turn with its own status, journaled, and
// the next message in the same session answers.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("a turn repeating a failing call ends 'stopped' within the guard's limit, journaled; the next message answers (issue 13, item 2)", async () => {
  const models = ensureFixtureModels();
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1" } });
  kernels.push(k);
  fs.mkdirSync(path.join(k.workspace, "src"));
  fs.writeFileSync(path.join(k.workspace, "src", "math.js"), "export const add = (a, b) => a + b;\n");
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client);
  const { sessionId } = await k.client.request("session/create", { model: models.tool });
  const first = await k.client.request("turn/start", { sessionId, message: "What does src/math.js do?" });
  const stopped = await driver.completion(first.turnId);
  assert.equal(stopped.status, "stopped", JSON.stringify(stopped));
  assert.match(stopped.error?.message ?? "", /^the model made the same failing call 3 times \(list_dir /);
  // The default context: the fixture model's trained 8192 tokens (issue 13, item 4).
  assert.ok(stopped.context && stopped.context.contextSize === 8192 && stopped.context.usedTokens > 0, JSON.stringify(stopped.context));
  const calls = (driver.events.get(first.turnId) ?? []).filter((e) => e.type === "tool_call").length;
  assert.ok(calls >= 3 && calls < 25, `${calls} calls before the stop`);

  let history = await k.client.request("session/history", { sessionId });
  const run = history.runs.find((r) => r.turnId === first.turnId)!;
  assert.equal(run.status, "failed");
  assert.match(run.attempts.at(-1)?.reason ?? "", /^stopped: the model made the same failing call 3 times/);
  assertCompleteBatches(history.messages);

  const second = await k.client.request("turn/start", { sessionId, message: "hello" });
  const answered = await driver.completion(second.turnId);
  assert.equal(answered.status, "completed", JSON.stringify(answered));
  history = await k.client.request("session/history", { sessionId });
  assert.equal((history.messages.at(-1) as { text: string }).text, TOOL_MODEL_ANSWER);
});

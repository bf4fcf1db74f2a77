// A real turn on the synthetic tool-call model through the whole kernel (issue 6): native inference
// proposes a tool call, the kernel asks for approval over the protocol, runs the anchored tool, feeds
// the result back, and the answer is streamed and committed.
import assert from "node:assert/strict";
import path from "node:path";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";

const kernels: TestKernel[] = [];
after(async () => { for (const k of kernels) await k.stop(); });

it("native tool call → approval → anchored tool → result fed back → streamed, committed answer (spec 000 #1, #3, #6, #8)", async () => {
  const models = ensureFixtureModels();
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  // Approve everything but shell: the synthetic model's arguments are random text.
  const driver = new TurnDriver(k.client, (req) => req.call.name === "shell"
    ? { decision: "deny", reason: "no random shell commands" }
    : { decision: "approve", reason: "approved by the test" });
  const { sessionId } = await k.client.request("session/create", { model: models.tool, options: { maxTokens: 64 } });
  const { runId } = await k.client.request("turn/start", { sessionId, message: "Look around the workspace, please." });
  const done = await driver.completion(runId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  const history = await k.client.request("session/history", { sessionId });
  assertCompleteBatches(history.messages);
  const roles = history.messages.map((m) => m.role);
  assert.deepEqual(roles.slice(0, 2), ["user", "assistant"]);
  assert.ok(roles.includes("tool"), `the model called no tool: ${JSON.stringify(history.messages)}`);
  const last = history.messages.at(-1)!;
  assert.equal(last.role, "assistant");
  assert.equal((last as { text: string }).text, TOOL_MODEL_ANSWER);
  assert.equal(driver.answerText(runId).endsWith(TOOL_MODEL_ANSWER), true, "the answer was streamed");
  const ledger = history.runs[0]!.ledger;
  assert.ok(ledger.length >= 1 && ledger.every((l) => l.status === "succeeded" || l.status === "failed"), JSON.stringify(ledger));
  void path;
});

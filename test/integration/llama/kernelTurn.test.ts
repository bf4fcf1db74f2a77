// A real turn on the synthetic tool-call model through the whole kernel (issue 6): native inference
// proposes a tool call, the kernel asks for approval over the protocol, runs the anchored tool, feeds
// the result back, and the answer is streamed and committed.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { restartableKernelOptions, startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("native tool call → approval → anchored tool → result fed back → streamed, committed answer (harness #1, #3, #6, #8)", async () => {
  const models = ensureFixtureModels();
  // Policy narrows the ceiling to write_file, so the random model's one possible call needs approval.
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_TOOLS: "write_file" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client, () => ({ decision: "approve", reason: "approved by the test" }));
  const { sessionId } = await k.client.request("session/create", { model: models.tool, options: { maxTokens: 64 } });
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "Look around the workspace, please." });
  const done = await driver.completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  const history = await k.client.request("session/history", { sessionId });
  assertCompleteBatches(history.messages);
  const roles = history.messages.map((m) => m.role);
  assert.deepEqual(roles.slice(0, 2), ["user", "assistant"]);
  assert.ok(roles.includes("tool"), `the model called no tool: ${JSON.stringify(history.messages)}`);
  const last = history.messages.at(-1)!;
  assert.equal(last.role, "assistant");
  assert.equal((last as { text: string }).text, TOOL_MODEL_ANSWER);
  assert.equal(driver.answerText(turnId).endsWith(TOOL_MODEL_ANSWER), true, "the answer was streamed");
  assert.ok(driver.approvals.length >= 1, "the write was put to the client for approval");
  const ledger = history.runs[0]!.ledger;
  assert.ok(ledger.length >= 1, `no call reached the ledger: ${JSON.stringify(history.messages)}`);
  assert.ok(
    ledger.every((l) => l.tool === "write_file" && l.status === "succeeded"),
    JSON.stringify(ledger),
  );
  const call = history.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls : []))[0]!;
  const written = String(call.arguments.path);
  assert.ok(fs.existsSync(path.join(k.workspace, written)), `the approved write created ${written} inside the workspace`);
});

interface RoundLog {
  promptTokens: number;
  restoredTokens: number;
  reusedTokens: number;
  prefillEvaluatedTokens: number;
}
function rounds(stderr: string[]): RoundLog[] {
  return stderr.filter((l) => l.includes("llama round ")).map((l) => JSON.parse(l.slice(l.indexOf("llama round ") + 12)) as RoundLog);
}

it("a restarted kernel resumes a session from saved KV state without re-evaluating its history (issue 6)", async () => {
  const models = ensureFixtureModels();
  const shared = restartableKernelOptions("resume", { HEARTH_THREADS: "1", HEARTH_TOOLS: "write_file" });
  const history = Array.from({ length: 20 }, (_, i) => `Note ${i}: the build passed and the tests were green on every platform.`).join(
    "\n",
  );
  const approve = () => ({ decision: "approve" as const, reason: "approved by the test" });

  const first = startTestKernel(shared);
  kernels.push(first);
  await first.client.initialize("test", "0");
  let driver = new TurnDriver(first.client, approve);
  const { sessionId } = await first.client.request("session/create", { model: models.tool, options: { maxTokens: 64 } });
  const one = await first.client.request("turn/start", { sessionId, message: `${history}\nPlease write a summary.` });
  assert.equal((await driver.completion(one.turnId)).status, "completed");
  await first.client.request("kernel/shutdown", undefined); // unloading saves every session's KV state
  await first.exited;

  const second = startTestKernel(shared);
  kernels.push(second);
  await second.client.initialize("test", "0");
  driver = new TurnDriver(second.client, approve);
  const two = await second.client.request("turn/start", { sessionId, message: "And now?" });
  assert.equal((await driver.completion(two.turnId)).status, "completed");
  const [resumed] = rounds(second.stderr);
  assert.ok(resumed, `no round logged: ${second.stderr.join("\n")}`);
  assert.ok(resumed.restoredTokens > 200, `restored only ${resumed.restoredTokens} tokens: ${JSON.stringify(resumed)}`);
  assert.ok(
    resumed.prefillEvaluatedTokens < resumed.promptTokens / 4,
    `re-evaluated ${resumed.prefillEvaluatedTokens} of ${resumed.promptTokens} prompt tokens`,
  );
});

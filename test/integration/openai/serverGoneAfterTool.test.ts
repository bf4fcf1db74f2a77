// The model server dies while a turn's tool runs (issue 16, item 4): the effect already happened, so
// its call and result must stay in history exactly once, and the next turn after a restart must
// show them to the model instead of running the tool again. llama-server with the tool model, a
// real kernel, an approved write_file.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";
import { assertJournalInvariants } from "../../support/journalInvariants.js";
import { startTestKernel, type TestKernel, tempDir } from "../../support/kernelProcess.js";
import { asciiOnly, type LlamaServer, startLlamaServer } from "../../support/llamaServer.js";
import { TurnDriver } from "../../support/turnDriver.js";

let server: LlamaServer;
let k: TestKernel;
before(async () => {
  const { tool } = ensureFixtureModels();
  server = await startLlamaServer({ model: tool, args: await asciiOnly(tool) });
  // write_file alone: the tool model's one possible call, and one that asks for approval.
  k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_TOOLS: "write_file" } });
  await k.client.initialize("openai-server-gone", "0");
});
after(async () => {
  await k?.stop();
  await server?.stop();
});

const roles = (messages: HistoryMessage[]) => messages.map((m) => m.role);

it("llama-server killed while an approved write runs: the turn fails, the write and its result stay committed once, and the next turn after a restart answers from them (harness #6, #10, #14)", async () => {
  const driver = new TurnDriver(k.client);
  let killFirst = true;
  k.client.onServerRequest("approval/request", async () => {
    // The server goes away between the round that proposed the write and the round that reads its result.
    if (killFirst) await server.kill("SIGKILL");
    killFirst = false;
    return { decision: "approve", reason: "approved by the test" };
  });
  const { sessionId } = await k.client.request("session/create", { model: `openai:${server.baseUrl}#tiny`, options: { maxTokens: 64 } });
  const first = await k.client.request("turn/start", { sessionId, message: "Write it down, please." });
  const failed = await driver.completion(first.turnId);
  assert.equal(failed.status, "failed", JSON.stringify(failed));
  assert.match(JSON.stringify(failed), /cannot reach the model server .*start the server/);

  let h = await k.client.request("session/history", { sessionId });
  assertJournalInvariants(h, "after the server died");
  const calls = h.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls : []));
  assert.ok(calls.length >= 1, `no call was committed: ${JSON.stringify(h.messages)}`);
  assert.deepEqual(
    roles(h.messages),
    ["user", "assistant", ...calls.map(() => "tool" as const)],
    "the dispatched batch stays checkpointed",
  );
  // A call whose arguments are not JSON (cut off by max_tokens) is refused without running, with no
  // ledger row (harness #5); every other one ran once.
  const ledger = h.runs[0]!.ledger;
  assert.ok(ledger.length >= 1, JSON.stringify(h.messages));
  assert.deepEqual(
    ledger.map((l) => `${l.tool}:${l.status}`),
    ledger.map(() => "write_file:succeeded"),
  );
  const written = h.messages.filter((m): m is Extract<HistoryMessage, { role: "tool" }> => m.role === "tool" && m.ok);
  assert.equal(written.length, ledger.length, "a result without its ledger row, or a row without its result");
  for (const r of written) {
    const call = calls.find((c) => c.callId === r.callId)!;
    assert.ok(fs.existsSync(path.join(k.workspace, String(call.arguments.path))), `${call.arguments.path} was not written`);
  }

  await server.restart();
  const second = await k.client.request("turn/start", { sessionId, message: "Go on." });
  const done = await driver.completion(second.turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  h = await k.client.request("session/history", { sessionId });
  assertJournalInvariants(h, "after the restart");
  // The tool model answers once a tool result is in its context: the server saw the kept results.
  assert.deepEqual(h.messages.at(-1), { ...h.messages.at(-1), role: "assistant", text: TOOL_MODEL_ANSWER });
  assert.equal(h.runs.flatMap((r) => r.ledger).length, ledger.length, "a write ran again");
});

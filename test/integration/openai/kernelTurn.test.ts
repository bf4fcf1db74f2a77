// Turns on an `openai:` model served by llama.cpp's own server (issue 16, item 4), through a real
// kernel over the protocol: turn/cancel in the middle of the stream, and the server killed there.
// This is the path for people whose model runs on another machine, so it gets the same proofs as
// the local engine: cancellation, and a failure that loses nothing.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { assertJournalInvariants } from "../../support/journalInvariants.js";
import { startTestKernel, type TestKernel, tempDir } from "../../support/kernelProcess.js";
import { type LlamaServer, startLlamaServer, WORDS_ONLY } from "../../support/llamaServer.js";
import { liveChildrenOf } from "../../support/processWatch.js";
import { TurnDriver } from "../../support/turnDriver.js";

/** The target is 1 s (issue 16); a busy 2-core CI gets more, and the figure is reported. */
const CONTROL_BOUND_MS = 2500;

const roles = (messages: HistoryMessage[]) => messages.map((m) => m.role);

describe("a kernel whose model is on llama-server: cancel and a server killed mid-turn (issue 16, item 4)", () => {
  let server: LlamaServer;
  let k: TestKernel;
  let driver: TurnDriver;
  let kernelPid: number;
  const completedAt = new Map<string, number>();

  before(async () => {
    // The chat model's server cannot produce a tool call (the probe disproves them), so the
    // kernel offers none: a session with tools would be refused before running (harness #20).
    server = await startLlamaServer({ model: ensureFixtureModels().chat, args: WORDS_ONLY });
    k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_TOOLS: "none" } });
    kernelPid = (await k.client.initialize("openai-kernel", "0")).kernelPid;
    driver = new TurnDriver(k.client);
    k.client.onNotification("turn/event", (n) => {
      if (n.event.type === "completed") completedAt.set(n.turnId, performance.now());
    });
  });
  after(async () => {
    await k?.stop();
    await server?.stop();
  });

  async function longTurn(): Promise<{ sessionId: string; turnId: string }> {
    const { sessionId } = await k.client.request("session/create", {
      model: `openai:${server.baseUrl}#tiny`,
      options: { maxTokens: 100_000, temperature: 0 },
    });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "Tell me a long story." });
    await driver.until(() => driver.answerText(turnId).length > 0, "the first streamed words");
    return { sessionId, turnId };
  }

  async function history(sessionId: string) {
    const h = await k.client.request("session/history", { sessionId });
    assertJournalInvariants(h, sessionId);
    return h;
  }

  it("turn/cancel mid-stream: control returns at once, the server stops generating, nothing streamed is committed, the next turn completes (harness #10, #18)", async (t) => {
    const { sessionId, turnId } = await longTurn();
    const cancelsBefore = server.cancelledTasks();
    const sent = performance.now();
    const answer = await k.client.request("turn/cancel", { turnId });
    const completed = await driver.completion(turnId);
    const completedMs = completedAt.get(turnId)! - sent;
    t.diagnostic(`turn/cancel → completed(${completed.status}) in ${completedMs.toFixed(1)} ms`);
    assert.equal(completed.status, "cancelled");
    // control plane #13: a closed HTTP stream does not prove the server stopped, so the
    // kernel does not claim it (docs/control-plane.md, known limitations); the server log below does.
    assert.deepEqual(answer, { turnId, dispatchAttempted: true, adapterAcknowledged: false });
    assert.ok(completedMs < CONTROL_BOUND_MS, `control came back after ${completedMs.toFixed(0)} ms`);
    // llama-server logs the task it dropped when the kernel closed the request.
    await driver.until(() => server.cancelledTasks() === cancelsBefore + 1, "llama-server to cancel its task", 5000);
    assert.deepEqual(roles((await history(sessionId)).messages), ["user"], "partial text is presentation only");
    assert.deepEqual(liveChildrenOf(kernelPid), [], "the kernel has no child process left");

    const next = await k.client.request("turn/start", { sessionId, message: "A short one?", options: { maxTokens: 16 } });
    const done = await driver.completion(next.turnId);
    assert.equal(done.status, "completed", JSON.stringify(done));
    assert.deepEqual(roles((await history(sessionId)).messages), ["user", "user", "assistant"]);
  });

  it("llama-server SIGKILLed mid-turn: the turn fails saying what happened and what to do, the message is kept, and after a restart the session goes on (harness #10, #13)", async (t) => {
    const { sessionId, turnId } = await longTurn();
    const killed = performance.now();
    await server.kill("SIGKILL");
    const completed = await driver.completion(turnId);
    t.diagnostic(`completed(${completed.status}) ${(completedAt.get(turnId)! - killed).toFixed(1)} ms after SIGKILL`);
    assert.equal(completed.status, "failed", JSON.stringify(completed));
    const failure = JSON.stringify(completed);
    assert.ok(failure.includes(server.baseUrl), `the failure does not name the server: ${failure}`);
    assert.match(failure, /broke off the answer before it finished.*send the message again/);
    const h = await history(sessionId);
    assert.deepEqual(roles(h.messages), ["user"], "the typed message stays; no partial answer is committed");
    assert.equal((h.messages[0] as { text: string }).text, "Tell me a long story.");
    assert.equal(h.runs.find((r) => r.turnId === turnId)?.status, "failed");

    await server.restart();
    const next = await k.client.request("turn/start", { sessionId, message: "Again, please.", options: { maxTokens: 16 } });
    const done = await driver.completion(next.turnId);
    assert.equal(done.status, "completed", JSON.stringify(done));
    assert.deepEqual(roles((await history(sessionId)).messages), ["user", "user", "assistant"]);
  });
});

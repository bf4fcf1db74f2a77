// Cancellation matrix (issue 16, item 3): turn/cancel at each place a turn can be, through a real
// kernel process. Each case checks that control comes back (the answer and the `completed` event,
// timed at the client and reported), that no process is left behind, that history is what harness
// #10, #13, #21 and #22 say for the case, and that turn/cancel's one answer matches the journal
// (control plane #13: cancellation acknowledgement is truthful).
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it, type TestContext } from "node:test";
import type { HistoryMessage, ServerRequestParams, ServerRequestResult } from "../../../shared/protocol/index.js";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { assertJournalInvariants } from "../../support/journalInvariants.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { liveChildrenOf, liveProcessesWith } from "../../support/processWatch.js";
import { TurnDriver } from "../../support/turnDriver.js";

/**
 * The target is 1 s (issue 16); the assertion allows a busy 2-core CI more, below the kernel's 3 s
 * wait for the completion barrier, and the figure itself is reported. Speed belongs to benchmarks.
 */
const CONTROL_BOUND_MS = 2500;

type Approver = (req: ServerRequestParams<"approval/request">, signal: AbortSignal) => Promise<ServerRequestResult<"approval/request">>;

let k: TestKernel;
let driver: TurnDriver;
let kernelPid: number;
let approver: Approver;
const completedAt = new Map<string, number>();
let models: ReturnType<typeof ensureFixtureModels>;

before(async () => {
  models = ensureFixtureModels();
  k = startTestKernel({
    env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: "8192" },
  });
  kernelPid = (await k.client.initialize("cancel-matrix", "0")).kernelPid;
  driver = new TurnDriver(k.client);
  // One handler for the whole file; each case says how approvals are answered.
  k.client.onServerRequest("approval/request", (req, signal) => approver(req, signal));
  k.client.onNotification("turn/event", (n) => {
    if (n.event.type === "completed") completedAt.set(n.turnId, performance.now());
  });
});
after(async () => {
  await k?.stop();
});

const approve: Approver = async () => ({ decision: "approve", reason: "approved by the test" });

function scripted(name: string, rounds: unknown[]): string {
  const file = path.join(path.dirname(k.journalPath), `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

async function session(model: string, options?: { maxTokens: number; temperature: number }): Promise<string> {
  return (await k.client.request("session/create", { model, ...(options ? { options } : {}) })).sessionId;
}

/** Sends turn/cancel and waits for the run's `completed` event; both timed from the send. */
async function cancelTimed(t: TestContext, turnId: string, expected: { dispatchAttempted: boolean; adapterAcknowledged: boolean }) {
  const sent = performance.now();
  const answer = await k.client.request("turn/cancel", { turnId });
  const answerMs = performance.now() - sent;
  const completed = await driver.completion(turnId);
  const completedMs = completedAt.get(turnId)! - sent;
  t.diagnostic(
    `turn/cancel answered in ${answerMs.toFixed(1)} ms; completed(${completed.status}) arrived ${completedMs.toFixed(1)} ms after the send`,
  );
  assert.equal(completed.status, "cancelled", JSON.stringify(completed));
  assert.ok(
    answerMs < CONTROL_BOUND_MS && completedMs < CONTROL_BOUND_MS,
    `control came back after ${answerMs.toFixed(0)} / ${completedMs.toFixed(0)} ms`,
  );
  assert.deepEqual(answer, { turnId, ...expected });
  // The answer is the journal's: the attempt row records the same two facts.
  const db = new Database(k.journalPath, { readonly: true });
  try {
    const row = db
      .prepare(`SELECT status, cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE run_id = ?`)
      .all(turnId);
    assert.deepEqual(row, [{ status: "cancelled", d: Number(expected.dispatchAttempted), a: Number(expected.adapterAcknowledged) }]);
  } finally {
    db.close();
  }
  assert.deepEqual(liveChildrenOf(kernelPid), [], "the kernel has no child process left");
  return completed;
}

async function history(sessionId: string) {
  const h = await k.client.request("session/history", { sessionId });
  assertJournalInvariants(h, "after the cancel");
  return h;
}

const roles = (messages: HistoryMessage[]) => messages.map((m) => m.role);

/** Waits until the run's attempt is `running`: the turn began (model built, history loaded). */
async function untilRunning(sessionId: string, turnId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const h = await k.client.request("session/history", { sessionId });
    if (h.runs.find((r) => r.turnId === turnId)?.attempts.some((a) => a.status === "running")) return;
    if (Date.now() > deadline) throw new Error(`run ${turnId} never began: ${JSON.stringify(h.runs)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const hasDelta = (turnId: string) => (driver.events.get(turnId) ?? []).some((e) => e.type === "answer_delta");

describe("turn/cancel at every place a turn can be (issue 16 item 3; harness #10, #13, #21, #22; control plane #13)", () => {
  it("during prefill: no answer, the long message is never shown to the model again, acknowledged (harness #10, #13)", async (t) => {
    approver = approve;
    // A warm model, so the turn below is in prefill as soon as it is running (~0.5 s of prefill on one thread).
    const warm = await session(models.chat, { maxTokens: 4, temperature: 0 });
    await driver.completion((await k.client.request("turn/start", { sessionId: warm, message: "hi" })).turnId);
    const sessionId = await session(models.chat, { maxTokens: 4, temperature: 0 });
    const long = Array.from({ length: 1800 }, (_, i) => `w${i % 97}`).join(" "); // ~5,200 tokens: with the tool definitions, most of the 8,192 context
    const { turnId } = await k.client.request("turn/start", { sessionId, message: long });
    await untilRunning(sessionId, turnId);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(hasDelta(turnId), false, "the first token came before the cancel: the prefill was too short to hit");
    await cancelTimed(t, turnId, { dispatchAttempted: true, adapterAcknowledged: true });
    assert.equal(hasDelta(turnId), false, "no token after the cancel either");
    assert.deepEqual(
      roles((await history(sessionId)).messages),
      ["user"],
      "no possible effect: the turn rolls back to its entry; the typed message stays in the journal",
    );

    const rounds = () =>
      k.stderr
        .filter((l) => l.includes("llama round "))
        .map((l) => JSON.parse(l.slice(l.indexOf("llama round ") + 12)) as { sessionKey: string; promptTokens: number });
    const next = await k.client.request("turn/start", { sessionId, message: "And now?" });
    assert.equal((await driver.completion(next.turnId)).status, "completed");
    const prompt = rounds()
      .filter((r) => r.sessionKey === sessionId)
      .at(-1)!;
    const warmPrompt = rounds().find((r) => r.sessionKey === warm)!;
    assert.ok(
      prompt.promptTokens < warmPrompt.promptTokens + 100,
      `the next turn's prompt holds ${prompt.promptTokens} tokens: the cancelled message was shown to the model (harness #13)`,
    );
    assert.deepEqual(roles((await history(sessionId)).messages), ["user", "user", "assistant"]);
  });

  it("during decode: the streamed text never becomes history, acknowledged (harness #3, #10)", async (t) => {
    approver = approve;
    const sessionId = await session(models.chat, { maxTokens: 3000, temperature: 0 });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "Tell me a long story." });
    await driver.until(() => hasDelta(turnId), "the first token");
    await new Promise((r) => setTimeout(r, 200));
    await cancelTimed(t, turnId, { dispatchAttempted: true, adapterAcknowledged: true });
    assert.ok(driver.answerText(turnId).length > 0, "text was streamed before the cancel");
    assert.deepEqual(
      roles((await history(sessionId)).messages),
      ["user"],
      "partial text is presentation only: no assistant message is committed",
    );
  });

  it("during a shell command with grandchildren: the whole tree is gone when control returns, the call/result checkpoint stays (harness #10, #14)", async (t) => {
    approver = approve;
    const marker = `30.${process.pid}${crypto.randomInt(1000)}`; // unique sleep lengths: this test's processes on the machine
    const command = `sh -c 'sleep ${marker}1 & sleep ${marker}2 & wait' & sleep ${marker}3; wait`;
    const sessionId = await session(
      scripted("shell", [{ text: ["Running it."], toolCalls: [{ name: "shell", arguments: { command } }] }, { text: ["never reached"] }]),
    );
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "run the long job" });
    const sleeps = () => liveProcessesWith(marker).filter((p) => p.cmdline.startsWith("sleep "));
    await driver.until(() => sleeps().length === 3, "the three sleeps (two of them grandchildren) to start");
    try {
      await cancelTimed(t, turnId, { dispatchAttempted: true, adapterAcknowledged: true });
      assert.deepEqual(liveProcessesWith(marker), [], "a process of the cancelled command survived");
    } finally {
      for (const p of liveProcessesWith(marker)) process.kill(p.pid, "SIGKILL");
    }
    const h = await history(sessionId);
    assert.deepEqual(roles(h.messages), ["user", "assistant", "tool"], "the call started: its call/result checkpoint stays");
    const result = h.messages[2] as Extract<HistoryMessage, { role: "tool" }>;
    assert.equal(result.ok, false);
    assert.match(result.output, /cancelled.*process group was killed/);
    assert.deepEqual(
      h.runs[0]!.ledger.map((l) => l.status),
      ["failed"],
    );
  });

  // The install is one bounded blocking step (atomicWrite.ts), so the kernel reads the cancel once it is
  // done: the write finishes whole (FinishOnceStarted) and the turn stops before its next model round.
  it("during a write: the approved install completes whole and stays checkpointed, nothing after it runs (harness #21, #22)", async (t) => {
    const content = `${"0123456789abcdef".repeat(64)}\n`.repeat(3800); // ~3.9 MB, under the 4 MiB write bound
    const sessionId = await session(
      scripted("write", [
        { text: ["Writing it."], toolCalls: [{ name: "write_file", arguments: { path: "big.txt", content } }] },
        { text: ["never reached"], delayMs: 500 },
      ]),
    );
    let cancelledMidWrite = false;
    let cancel!: Promise<void>;
    approver = async (req) => {
      // The cancel leaves right behind the approval: the kernel gets it while the write is in flight.
      setImmediate(() => {
        cancelledMidWrite = !(driver.events.get(req.turnId) ?? []).some((e) => e.type === "tool_result");
        cancel = cancelTimed(t, req.turnId, { dispatchAttempted: true, adapterAcknowledged: true }).then(() => undefined);
      });
      return { decision: "approve", reason: "approved by the test" };
    };
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "write the big file" });
    await driver.until(() => cancel !== undefined, "the approval and the cancel");
    await cancel;
    assert.ok(cancelledMidWrite, "the cancel left before the write's result came back");
    const written = fs.readFileSync(path.join(k.workspace, "big.txt"));
    assert.equal(
      crypto.createHash("sha256").update(written).digest("hex"),
      crypto.createHash("sha256").update(content).digest("hex"),
      "the file is the whole new content",
    );
    const h = await history(sessionId);
    assert.deepEqual(roles(h.messages), ["user", "assistant", "tool"]);
    assert.equal((h.messages[2] as Extract<HistoryMessage, { role: "tool" }>).ok, true);
    assert.deepEqual(
      h.runs[0]!.ledger.map((l) => l.status),
      ["succeeded"],
    );
    assert.equal(driver.answerText(turnId).includes("never reached"), false, "no model round after the cancel");
  });

  it("during an approval wait: the request is withdrawn, a late approval runs nothing, the turn rolls back (harness #8, #10)", async (t) => {
    const effect = path.join(path.dirname(k.journalPath), "approved-too-late");
    const sessionId = await session(
      scripted("approval", [
        { text: ["May I?"], toolCalls: [{ name: "shell", arguments: { command: `touch ${effect}` } }] },
        { text: ["never reached"] },
      ]),
    );
    let asked = false;
    let withdrawn = false;
    approver = (_req, signal) =>
      new Promise((resolve) => {
        asked = true;
        // Never answered until withdrawn; then answered "approve", which must change nothing.
        signal.addEventListener(
          "abort",
          () => {
            withdrawn = true;
            resolve({ decision: "approve", reason: "too late" });
          },
          { once: true },
        );
      });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "touch the file" });
    await driver.until(() => asked, "the approval request");
    await cancelTimed(t, turnId, { dispatchAttempted: true, adapterAcknowledged: true });
    await driver.until(() => withdrawn, "the kernel to withdraw its approval request", 2000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(fs.existsSync(effect), false, "the late approval ran the command");
    const h = await history(sessionId);
    assert.deepEqual(roles(h.messages), ["user"], "nothing was dispatched: the turn rolls back to its entry");
    assert.deepEqual(h.runs[0]!.ledger, [], "no call reached the ledger");
  });

  it("while queued behind a model load: answered at once without a dispatch, never reaches the model (control plane #13)", async (t) => {
    approver = approve;
    // An OpenAI-compatible server that holds its answer to the load's capability probe: the load stays in progress.
    const held: http.ServerResponse[] = [];
    let streamed = 0;
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        if ((JSON.parse(raw) as { stream?: boolean }).stream === true) streamed++;
        held.push(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const sessionId = await session(`openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m`);
      const { turnId } = await k.client.request("turn/start", { sessionId, message: "hello" });
      await driver.until(() => held.length > 0, "the load's probe request");
      await cancelTimed(t, turnId, { dispatchAttempted: false, adapterAcknowledged: false });
      for (const res of held.splice(0)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { content: "OK" } }] }));
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(driver.events.get(turnId)!.filter((e) => e.type === "completed").length, 1, "one completion, never a later one");
      assert.equal(streamed, 0, "the cancelled turn never asked the model for a generation");
      const h = await history(sessionId);
      assert.deepEqual(roles(h.messages), ["user"]);
      assert.equal(h.runs[0]!.status, "cancelled");
    } finally {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});

// Full turns through a real kernel process, real journal and real workspace tools, driven by the
// scripted adapter over the protocol (issue 4).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";

function script(rounds: unknown[]): string {
  const file = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

describe("turns over the protocol", () => {
  const kernels: TestKernel[] = [];
  const kernel = () => {
    const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1" } });
    kernels.push(k);
    return k;
  };
  after(async () => {
    for (const k of kernels) await k.stop();
  });

  it("a multi-round turn streams lossless deltas and commits complete call/result batches (harness #3, #6)", async () => {
    const k = kernel();
    fs.writeFileSync(path.join(k.workspace, "notes.txt"), "alpha\nbeta\n");
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client);
    const model = script([
      {
        reasoning: ["look first"],
        text: ["Reading ", "notes."],
        toolCalls: [
          { name: "read_file", arguments: { path: "notes.txt" } },
          { name: "list_dir", arguments: { path: "." } },
        ],
      },
      { text: ["It says ", "alpha and beta."] },
    ]);
    const { sessionId } = await k.client.request("session/create", { model });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "what is in notes.txt?" });
    assert.equal((await driver.completion(turnId)).status, "completed");
    const history = await k.client.request("session/history", { sessionId });
    const assistantText = history.messages
      .filter((m) => m.role === "assistant")
      .map((m) => (m as { text: string }).text)
      .join("");
    assert.equal(driver.answerText(turnId), assistantText, "concatenated deltas equal the committed text");
    assert.deepEqual(
      history.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "assistant"],
    );
    assertCompleteBatches(history.messages);
    const read = history.messages[2] as Extract<HistoryMessage, { role: "tool" }>;
    assert.equal(read.ok, true);
    assert.match(read.output, /alpha/);
    const run = history.runs.find((r) => r.turnId === turnId)!;
    assert.equal(run.status, "completed");
    assert.deepEqual(
      run.ledger.map((l) => l.status),
      ["succeeded", "succeeded"],
    );
    assert.equal(driver.approvals.length, 0, "reads need no approval");
  });

  it("a write needs an exact approval: denied by default, nothing written; approved, written once (harness #8)", async () => {
    const k = kernel();
    await k.client.initialize("test", "0");
    const answers: ("approve" | "deny")[] = ["deny", "approve"];
    const driver = new TurnDriver(k.client, () => {
      const decision = answers.shift()!;
      return { decision, reason: `${decision} by the test` };
    });
    const write = { name: "write_file", arguments: { path: "out.txt", content: "hello\n" } };
    const model = script([
      { text: ["Writing."], toolCalls: [write] },
      { text: ["Denied, stopping."] },
      { text: ["Again."], toolCalls: [write] },
      { text: ["Done."] },
    ]);
    const { sessionId } = await k.client.request("session/create", { model });
    const first = await k.client.request("turn/start", { sessionId, message: "write it" });
    assert.equal((await driver.completion(first.turnId)).status, "completed");
    assert.equal(fs.existsSync(path.join(k.workspace, "out.txt")), false, "a denied write touches nothing");
    const second = await k.client.request("turn/start", { sessionId, message: "please, write it" });
    assert.equal((await driver.completion(second.turnId)).status, "completed");
    assert.equal(fs.readFileSync(path.join(k.workspace, "out.txt"), "utf8"), "hello\n");
    assert.equal(driver.approvals.length, 2);
    const [req] = driver.approvals;
    assert.equal(req!.call.name, "write_file");
    assert.match(req!.inputHash, /^[0-9a-f]{64}$/);
    assert.equal(req!.preview.kind, "diff");
    const history = await k.client.request("session/history", { sessionId });
    assertCompleteBatches(history.messages);
    const denied = history.messages.find((m) => m.role === "tool" && !m.ok) as Extract<HistoryMessage, { role: "tool" }>;
    assert.match(denied.output, /denied/i);
  });

  it("turn/cancel during a running shell ends the run cancelled, kills the process group and says so truthfully (control plane #13, harness #21)", async () => {
    const k = kernel();
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client, () => ({ decision: "approve", reason: "ok" }));
    const marker = path.join(k.workspace, "started");
    // A duration no other process on the machine is likely to use identifies this shell's sleeper.
    const nap = `${3000 + Math.floor(Math.random() * 5000)}.${process.pid}`;
    const model = script([
      { text: ["Running."], toolCalls: [{ name: "shell", arguments: { command: `touch ${marker}; sleep ${nap}` } }] },
      { text: ["never"] },
    ]);
    const { sessionId } = await k.client.request("session/create", { model });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "run it" });
    await driver.until(() => fs.existsSync(marker), "the shell command to start");
    const cancel = await k.client.request("turn/cancel", { turnId });
    assert.equal(cancel.dispatchAttempted, true);
    assert.equal(cancel.adapterAcknowledged, true);
    assert.equal((await driver.completion(turnId)).status, "cancelled");
    const history = await k.client.request("session/history", { sessionId });
    assert.equal(history.runs.find((r) => r.turnId === turnId)!.status, "cancelled");
    assertCompleteBatches(history.messages);
    const sleepers = fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(`sleep\u0000${nap}`);
        } catch {
          return false;
        }
      })
      .filter((p) => !fs.readFileSync(`/proc/${p}/stat`, "utf8").includes(") Z "));
    assert.deepEqual(sleepers, [], "no live process of the cancelled shell remains");
  });

  it("a second turn/start while one runs is refused with a clear conflict (harness #2)", async () => {
    const k = kernel();
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client);
    const model = script([{ text: ["slow ", "answer"], delayMs: 400 }]);
    const { sessionId } = await k.client.request("session/create", { model });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "one" });
    await assert.rejects(k.client.request("turn/start", { sessionId, message: "two" }), /already has an active run/);
    assert.equal((await driver.completion(turnId)).status, "completed");
  });

  it("a turn that fails before any effect is rolled back from the model's view but kept in the journal (harness #13)", async () => {
    const k = kernel();
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client);
    // Each round fails unless the model is shown exactly these user messages: the first turn fails on it.
    const model = script([
      { text: ["answered"], expectUsers: ["second"] },
      { text: ["again"], expectUsers: ["second", "third"] },
    ]);
    const { sessionId } = await k.client.request("session/create", { model });
    const first = await k.client.request("turn/start", { sessionId, message: "first" });
    const failed = await driver.completion(first.turnId);
    assert.equal(failed.status, "failed");
    const second = await k.client.request("turn/start", { sessionId, message: "second" });
    assert.equal((await driver.completion(second.turnId)).status, "completed", "the failed turn's message was not replayed to the model");
    const third = await k.client.request("turn/start", { sessionId, message: "third" });
    assert.equal((await driver.completion(third.turnId)).status, "completed", "a completed turn's message stays in the model's view");
    const history = await k.client.request("session/history", { sessionId });
    assert.deepEqual(
      history.messages.map((m) => [m.role, "text" in m ? m.text : m.output]),
      [
        ["user", "first"],
        ["user", "second"],
        ["assistant", "answered"],
        ["user", "third"],
        ["assistant", "again"],
      ],
      "nothing a person typed is lost",
    );
    assert.equal(history.runs.find((r) => r.turnId === first.turnId)?.status, "failed");
  });
});

// Killing the kernel during a tool call: after restart the session continues with a structurally
// complete history, the call marked outcome_unknown, and the call never silently re-run
// (issue 4; harness #6, #10; control plane #21).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";

function killStrays(pattern: string): void {
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(pattern)) process.kill(Number(p), "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

it("a kernel killed during a tool call leaves the call outcome_unknown in a complete history and never re-runs it (harness #6, control plane #21)", async () => {
  const root = tempDir("crash-turn");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const journalPath = path.join(root, "journal.sqlite");
  const marker = path.join(workspace, "runs.log");
  const scriptFile = path.join(root, "script.json");
  const nap = `311.${process.pid}`; // identifies this test's sleeper among the machine's processes
  fs.writeFileSync(
    scriptFile,
    JSON.stringify({
      rounds: [
        { text: ["Starting the build."], toolCalls: [{ name: "shell", arguments: { command: `echo ran >> ${marker}; sleep ${nap}` } }] },
        { text: ["The build was interrupted; I will not rerun it without you."] },
      ],
    }),
  );
  const env = { HEARTH_ALLOW_SCRIPTED: "1" };
  const first = startTestKernel({ workspace, journalPath, env });
  let sessionId = "";
  try {
    await first.client.initialize("test", "0");
    const driver = new TurnDriver(first.client, () => ({ decision: "approve", reason: "approved by the test" }));
    sessionId = (await first.client.request("session/create", { model: `scripted:${scriptFile}` })).sessionId;
    await first.client.request("turn/start", { sessionId, message: "run the build" });
    await driver.until(() => fs.existsSync(marker), "the shell call to start");
    first.child.kill("SIGKILL");
    await first.exited;
  } finally {
    killStrays(`sleep\u0000${nap}`); // the kernel died without reaping its shell: a documented limit
    first.client.dispose();
  }

  const second = startTestKernel({ workspace, journalPath, env });
  try {
    await second.client.initialize("test", "0");
    const driver = new TurnDriver(second.client);
    const before = await second.client.request("session/history", { sessionId });
    const interrupted = before.runs[0]!;
    assert.equal(interrupted.status, "failed");
    assert.equal(interrupted.ledger[0]!.status, "outcome_unknown");
    assertCompleteBatches(before.messages);
    const { turnId } = await second.client.request("turn/start", { sessionId, message: "what happened?" });
    assert.equal((await driver.completion(turnId)).status, "completed");
    const after = await second.client.request("session/history", { sessionId });
    assertCompleteBatches(after.messages);
    assert.deepEqual(
      after.messages.map((m) => m.role),
      ["user", "assistant", "tool", "user", "assistant"],
    );
    const result = after.messages[2] as Extract<HistoryMessage, { role: "tool" }>;
    assert.equal(result.ok, false);
    assert.match(result.output, /outcome unknown.*not re-run/);
    assert.equal(fs.readFileSync(marker, "utf8"), "ran\n", "the shell call ran exactly once");
  } finally {
    await second.stop();
  }
});

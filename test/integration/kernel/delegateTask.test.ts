// A coordinator chat delegates through the delegate_task tool (issue 12, item 3): the person approves
// the delegation, a background task runs as a leaf session on the chat's model, and its answer comes
// back to the chat as the call's result. The leaf is never offered delegate_task (control plane #18).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const TOOLS = "read_file,list_dir,delegate_task";

it("delegate_task runs a leaf task on the chat's model and returns its answer to the coordinator (issue 12 item 3; control plane #18)", async () => {
  const root = tempDir("delegate");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const script = path.join(root, "script.json");
  // Both sessions replay this script from round 1: the coordinator delegates; the leaf is offered
  // no delegate_task (its round 1 asks only for the tools a leaf has), then answers.
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [
        {
          text: ["Handing it off."],
          toolCalls: [{ name: "delegate_task", arguments: { instruction: "Count the files", title: "Count" } }],
        },
        { text: ["There are 3 files."] },
      ],
    }),
  );
  const k = startTestKernel({
    workspace,
    journalPath: path.join(root, "j.sqlite"),
    env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_TOOLS: TOOLS },
  });
  try {
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client, (req) =>
      req.call.name === "delegate_task" ? { decision: "approve", reason: "approved by the test" } : { decision: "deny", reason: "no" },
    );
    const { sessionId } = await k.client.request("session/create", { model: `scripted:${script}` });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "how many files?" });
    assert.equal((await driver.completion(turnId)).status, "completed");

    assert.deepEqual(
      driver.approvals.map((a) => [a.call.name, a.preview.kind === "text" ? a.preview.text : ""]),
      [["delegate_task", "start a background task: Count the files"]],
      "the person approves the delegation, exactly once",
    );
    const { tasks } = await k.client.request("task/list", {});
    assert.equal(tasks.length, 1);
    const task = tasks[0]!;
    assert.equal(task.parentSessionId, sessionId, "the task names the chat that delegated it");
    assert.equal(task.state, "completed");
    assert.equal(task.model, `scripted:${script}`, "the task runs on its coordinator's model");
    assert.ok(!task.tools.includes("delegate_task"), "a leaf's ceiling has no agent management");

    const history = await k.client.request("session/history", { sessionId });
    const result = history.messages.find((m) => m.role === "tool") as Extract<HistoryMessage, { role: "tool" }>;
    assert.equal(result.ok, true);
    assert.match(result.output, /completed:\nThere are 3 files\./, "the task's answer comes back to the coordinator");

    const leaf = await k.client.request("session/history", { sessionId: task.sessionId });
    const refused = leaf.messages.find((m) => m.role === "tool") as Extract<HistoryMessage, { role: "tool" }>;
    assert.equal(refused.ok, false, "the leaf's own delegate_task call is refused, never run");
  } finally {
    await k.stop();
  }
});

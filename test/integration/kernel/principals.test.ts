// Clients are principals (issue 24) through real kernel processes, real journals and the scripted
// model: a task's approvals reach only clients that can ask a person, following a run never takes
// its approvals, a task from an untrusted client is never offered a write, and turn/cancel of a
// queued task's run cancels the task.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import type { ClientPrincipal, NotificationParams, TaskSummary } from "../../../shared/protocol/index.js";
import { DIST, startTestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { runCli, scriptedKernelSetup, waitFor } from "../../support/cliProcess.js";

const window = (folder: string): ClientPrincipal => ({ kind: "window", folder, asksPerson: true });
const terminal = (folder: string): ClientPrincipal => ({ kind: "terminal", folder, asksPerson: false });

async function taskState(client: { request: (m: "task/show", p: { taskId: string }) => Promise<{ task: TaskSummary }> }, id: string) {
  return (await client.request("task/show", { taskId: id })).task;
}

it("following a task's run is read-only: the follower leaving never denies the task's next call, and a window still hears its events and answers it (issue 24, item 4)", async () => {
  const t = scriptedKernelSetup("follow", [
    { text: ["One."], toolCalls: [{ name: "shell", arguments: { command: "echo one >> log.txt" } }] },
    { text: ["Two."], toolCalls: [{ name: "shell", arguments: { command: "echo two >> log.txt" } }] },
    { text: ["Done."] },
  ]);
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("test", "0", { client: terminal(t.workspace) });
    const task = (await k.client.request("task/start", { instruction: "log twice", model: t.model })).task;
    let state = await taskState(k.client, task.taskId);
    while (state.state !== "waiting_approval") state = await taskState(k.client, task.taskId);

    const follower = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, journalPath: t.journalPath, env: t.env });
    await follower.client.initialize("follower", "0", { client: terminal(t.workspace) });
    const followed = await follower.client.request("turn/follow", { turnId: task.turnId! });
    assert.equal(followed.following, true);
    follower.dispose();

    const win = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, journalPath: t.journalPath, env: t.env });
    try {
      await win.client.initialize("window", "0", { client: window(t.workspace) });
      const driver = new TurnDriver(win.client, () => ({ decision: "approve", reason: "approved on the card", surface: "card" }));
      await driver.until(
        () => (driver.events.get(task.turnId!) ?? []).some((e) => e.type === "completed"),
        "the task's run to complete",
        30_000,
      );
      assert.equal(
        fs.readFileSync(path.join(t.workspace, "log.txt"), "utf8"),
        "one\ntwo\n",
        "both calls ran: none was denied for the follower",
      );
      assert.equal(driver.approvals.length, 2, "the window was asked for both calls");
      assert.equal((await taskState(win.client, task.taskId)).state, "completed");
      const history = await win.client.request("session/history", { sessionId: task.sessionId });
      assert.deepEqual(
        history.decisions?.map((d) => [d.tool, d.decision, d.decidedBy.kind, d.surface]),
        [
          ["shell", "approve", "window", "card"],
          ["shell", "approve", "window", "card"],
        ],
        "each decision is journaled with who decided and where",
      );
    } finally {
      win.dispose();
    }
  } finally {
    await k.stop();
  }
});

it("a chat turn's approvals go only to the client that started it: another client's handler is never asked (issue 24, item 1)", async () => {
  const t = scriptedKernelSetup("chat-owner", [
    // The delay lets the follower's turn/follow arrive before the call is proposed.
    { text: ["Writing."], delayMs: 300, toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "A\n" } }] },
    { text: ["Done."] },
  ]);
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  // The starter's kernel first owns the journal: a second client connecting before that would start a
  // kernel of its own and race the first for the lock (the loser's client then waits for ever).
  await k.client.initialize("starter", "0", { client: window(t.workspace) });
  const other = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await other.client.initialize("other", "0", { client: window(t.workspace) });
    const otherDriver = new TurnDriver(other.client, () => ({ decision: "approve", reason: "not mine to approve" }));
    const driver = new TurnDriver(k.client, () => ({ decision: "deny", reason: "denied in the file", surface: "lens" }));
    const { sessionId } = await k.client.request("session/create", { model: t.model });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "write a" });
    await other.client.request("turn/follow", { turnId });
    assert.equal((await driver.completion(turnId)).status, "completed");
    assert.equal(otherDriver.approvals.length, 0, "the follower was never asked");
    assert.equal(fs.existsSync(path.join(t.workspace, "a.txt")), false, "the starter's denial held");
    const history = await k.client.request("session/history", { sessionId });
    assert.deepEqual(
      history.decisions?.map((d) => [d.decision, d.reason, d.decidedBy.kind, d.surface]),
      [["deny", "denied in the file", "window", "lens"]],
    );
    assert.deepEqual(
      history.origins?.map((o) => [o.turnId, o.kind, o.readOnly]),
      [[turnId, "window", false]],
      "the run records who started it",
    );
  } finally {
    other.dispose();
    await k.stop();
  }
});

it("a task started by an untrusted client is offered read-only tools only, and says so in task/list and `hearth tasks` (issue 24, item 2)", async () => {
  const t = scriptedKernelSetup("readonly-task", [
    { text: ["Writing."], toolCalls: [{ name: "write_file", arguments: { path: "pwned.txt", content: "x\n" } }] },
    { text: ["Could not write."] },
  ]);
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("window", "0", { client: window(t.workspace) });
    const driver = new TurnDriver(k.client, () => ({ decision: "approve", reason: "approved by the test" }));
    const task = (await k.client.request("task/start", { instruction: "write pwned", model: t.model, readOnly: true })).task;
    assert.equal(task.readOnly, true);
    await driver.until(() => (driver.events.get(task.turnId!) ?? []).some((e) => e.type === "completed"), "the task to end", 30_000);
    assert.equal(fs.existsSync(path.join(t.workspace, "pwned.txt")), false, "no write ran");
    assert.equal(driver.approvals.length, 0, "a write was never even proposed for approval");
    const listed = await runCli(["tasks", "--workspace", t.workspace, "--db", t.journalPath], t.env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /read-only \(started in Restricted Mode\)/);
    const history = await k.client.request("session/history", { sessionId: task.sessionId });
    assert.deepEqual(
      history.origins?.map((o) => [o.kind, o.readOnly]),
      [["task", true]],
    );
  } finally {
    await k.stop();
  }
});

it("turn/cancel of a queued task's run cancels the task: task/show says cancelled, not queued for ever (issue 24, item 5 repro)", async () => {
  const t = scriptedKernelSetup("cancel-queued", [{ text: ["a", "b", "c", "d"], delayMs: 1000 }], { HEARTH_MAX_TASKS: "1" });
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("test", "0", { client: window(t.workspace) });
    const updates: NotificationParams<"task/updated">[] = [];
    k.client.onNotification("task/updated", (n) => updates.push(n));
    const running = (await k.client.request("task/start", { instruction: "slow", model: t.model })).task;
    const queued = (await k.client.request("task/start", { instruction: "waits", model: t.model })).task;
    assert.equal(queued.state, "queued");
    const r = await k.client.request("turn/cancel", { turnId: queued.turnId! });
    assert.deepEqual([r.dispatchAttempted, r.adapterAcknowledged], [false, false]);
    assert.equal((await taskState(k.client, queued.taskId)).state, "cancelled");
    await waitFor(
      () => updates.some((u) => u.task.taskId === queued.taskId && u.task.state === "cancelled"),
      "task/updated to say cancelled",
    );
    await k.client.request("task/cancel", { taskId: running.taskId });
  } finally {
    await k.stop();
  }
});

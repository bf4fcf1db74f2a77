// Background tasks through real kernel processes, real journals and the scripted model (issue 12,
// items 3, 4, 6, 7): concurrency with chats, the HEARTH_MAX_TASKS queue, truthful cancel, approvals
// that wait for a person, kill -9 mid-task (orphaned, resumable, its effect not repeated), and the
// CLI seeing exactly what the protocol shows.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import type { NotificationParams, TaskSummary } from "../../../shared/protocol/index.js";
import { DIST, startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { alive, runCli, scriptedKernelSetup, waitFor } from "../../support/cliProcess.js";

/** Follows task/updated notifications: the latest state of each task the kernel published. */
function watchTasks(client: { onNotification: (m: "task/updated", h: (n: NotificationParams<"task/updated">) => void) => void }) {
  const latest = new Map<string, TaskSummary>();
  const seen = new Map<string, string[]>();
  client.onNotification("task/updated", (n) => {
    latest.set(n.task.taskId, n.task);
    seen.set(n.task.taskId, [...(seen.get(n.task.taskId) ?? []), n.task.state]);
  });
  return { latest, seen };
}

it("tasks run beside a chat turn, HEARTH_MAX_TASKS=2 queues the third, each result is an artifact task/show returns, and `hearth tasks --json` lists what task/list lists (issue 12 items 3, 6)", async () => {
  const t = scriptedKernelSetup("tasks-concurrent", [{ text: ["Work", "ing ", "on ", "it."], delayMs: 250 }], { HEARTH_MAX_TASKS: "2" });
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client);
    const watch = watchTasks(k.client);
    const { sessionId } = await k.client.request("session/create", { model: t.model });
    const { turnId: chatRun } = await k.client.request("turn/start", { sessionId, message: "chat" });
    const started: TaskSummary[] = [];
    for (const n of [1, 2, 3]) started.push((await k.client.request("task/start", { instruction: `task ${n}`, model: t.model })).task);
    assert.deepEqual(
      started.map((s) => s.state),
      ["running", "running", "queued"],
      "two run at once, the third waits",
    );
    assert.equal(started[0]!.title, "task 1", "an untitled task is named by its instruction");
    assert.ok(
      !started[0]!.tools.includes("delegate_task") && started[0]!.tools.includes("shell"),
      "a leaf's ceiling: the kernel's tools without agent management",
    );

    assert.equal((await driver.completion(chatRun)).status, "completed");
    const whileChat = (await k.client.request("task/list", {})).tasks;
    await waitFor(() => started.every((s) => watch.latest.get(s.taskId)?.state === "completed"), "every task to complete", 30_000);
    assert.ok(
      whileChat.some((x) => x.state === "running" || x.state === "completed"),
      "tasks ran while the chat turn ran",
    );
    assert.ok(watch.seen.get(started[2]!.taskId)!.includes("running"), "the queued task ran once a slot freed");
    for (const s of started) {
      const shown = await k.client.request("task/show", { taskId: s.taskId });
      assert.equal(shown.result, "Working on it.");
      assert.ok(shown.task.resultArtifactId);
      const history = await k.client.request("session/history", { sessionId: s.sessionId });
      assert.equal(history.session.role, "leaf");
    }
    const listed = await runCli(["tasks", "--workspace", t.workspace, "--db", t.journalPath, "--json"], t.env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout),
      await k.client.request("task/list", {}),
      "the terminal sees exactly what the protocol shows",
    );
  } finally {
    await k.stop();
  }
});

it("cancel is truthful: a running task's cancel reaches the model and is acknowledged, a queued one is cancelled before it started (issue 12 item 3, control plane #13)", async () => {
  const t = scriptedKernelSetup("tasks-cancel", [{ text: ["a", "b", "c", "d", "e", "f", "g", "h"], delayMs: 1000 }], {
    HEARTH_MAX_TASKS: "1",
  });
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("test", "0");
    const driver = new TurnDriver(k.client);
    const running = (await k.client.request("task/start", { instruction: "slow", model: t.model })).task;
    const queued = (await k.client.request("task/start", { instruction: "waits", model: t.model })).task;
    assert.equal(queued.state, "queued");
    await driver.until(
      () => (driver.events.get(running.turnId!) ?? []).some((e) => e.type === "answer_delta"),
      "the running task to stream",
    );

    const q = await k.client.request("task/cancel", { taskId: queued.taskId });
    assert.deepEqual([q.task.state, q.dispatchAttempted, q.adapterAcknowledged], ["cancelled", false, false]);
    const r = await k.client.request("task/cancel", { taskId: running.taskId });
    assert.deepEqual([r.task.state, r.dispatchAttempted, r.adapterAcknowledged], ["cancelled", true, true]);
    const history = await k.client.request("session/history", { sessionId: running.sessionId });
    assert.equal(history.runs[0]!.status, "cancelled");
    assert.equal((await k.client.request("task/show", { taskId: running.taskId })).result, null);
    await assert.rejects(k.client.request("task/resume", { taskId: running.taskId }), /only an orphaned task can be resumed/);
  } finally {
    await k.stop();
  }
});

it("a task's approval waits for a person while no client is connected, reaches a client marked with the task, and kill -9 mid-call leaves the task orphaned, resumable, its effect not repeated (issue 12 items 4, 7)", async () => {
  const nap = `313.${process.pid}`; // the shell call outlives the killed kernel; found and ended by its argument
  const root = tempDir("tasks-crash");
  const marker = path.join(root, "runs.log");
  const t = scriptedKernelSetup("tasks-crash", [
    { text: ["Building."], toolCalls: [{ name: "shell", arguments: { command: `echo ran >> ${marker}; sleep ${nap}` } }] },
    { text: ["Built."] },
  ]);
  const cli = (...args: string[]) => runCli([...args, "--workspace", t.workspace, "--db", t.journalPath, "--json"], t.env);
  const tasksNow = async () => {
    const r = await cli("tasks");
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { tasks: TaskSummary[] }).tasks;
  };
  try {
    const started = await runCli(
      ["task", "start", "--workspace", t.workspace, "--db", t.journalPath, "--model", t.model, "--title", "build", "--json", "build it"],
      t.env,
    );
    assert.equal(started.code, 0, started.stderr);
    const { task } = JSON.parse(started.stdout) as { task: TaskSummary };
    assert.equal(task.title, "build");

    // No client answers: the task waits for a person instead of being denied.
    let waiting: TaskSummary[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      waiting = await tasksNow();
      if (waiting[0]?.state === "waiting_approval") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(waiting[0]?.state, "waiting_approval");
    assert.ok(!fs.existsSync(marker), "nothing ran before the approval");

    const kernel = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, journalPath: t.journalPath, env: t.env });
    const info = await kernel.client.initialize("test", "0", { client: { kind: "window", folder: t.workspace, asksPerson: true } });
    const driver = new TurnDriver(kernel.client, () => ({ decision: "approve", reason: "approved by the test" }));
    await waitFor(() => fs.existsSync(marker), "the approved shell call to start");
    assert.equal(driver.approvals[0]!.taskId, task.taskId, "the request is marked with its task");
    process.kill(info.kernelPid, "SIGKILL");
    await waitFor(() => !alive(info.kernelPid), "the kernel to die");
    kernel.dispose();

    const [orphaned] = await tasksNow(); // a new kernel starts and reconciles
    assert.equal(orphaned!.state, "orphaned");
    const history = JSON.parse((await cli("show", task.sessionId)).stdout) as { runs: { status: string; ledger: { status: string }[] }[] };
    assert.equal(history.runs[0]!.status, "failed", "the interrupted run is closed: the session does not refuse turns");
    assert.deepEqual(
      history.runs[0]!.ledger.map((l) => l.status),
      ["outcome_unknown"],
    );

    const resumed = await cli("task", "resume", task.taskId);
    assert.equal(resumed.code, 0, resumed.stderr);
    let shown: { task: TaskSummary; result: string | null } | undefined;
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      shown = JSON.parse((await cli("task", "show", task.taskId)).stdout) as typeof shown;
      if (shown!.task.state === "completed") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(shown!.task.state, "completed");
    assert.equal(shown!.result, "Built.");
    assert.equal(fs.readFileSync(marker, "utf8"), "ran\n", "the interrupted call was not run again");
  } finally {
    // The shell call outlives a killed kernel; a kernel whose task waits for a person never idles out.
    for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
        if (cmdline.includes(`sleep\u0000${nap}`) || cmdline.includes(t.journalPath)) process.kill(Number(p), "SIGKILL");
      } catch {
        /* gone */
      }
    }
  }
});

it("a task still queued when the kernel is killed never ran, so it stays queued and runs at the next start; only the running one is orphaned (issue 12 item 7, control plane #21)", async () => {
  const t = scriptedKernelSetup("tasks-requeue", [{ text: ["Slow", " work."], delayMs: 2000 }], { HEARTH_MAX_TASKS: "1" });
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  let running: TaskSummary;
  let queued: TaskSummary;
  try {
    await k.client.initialize("test", "0");
    running = (await k.client.request("task/start", { instruction: "first", model: t.model })).task;
    queued = (await k.client.request("task/start", { instruction: "second", model: t.model })).task;
    assert.deepEqual([running.state, queued.state], ["running", "queued"]);
    k.child.kill("SIGKILL");
    await waitFor(() => k.child.exitCode !== null || k.child.signalCode !== null, "the kernel to die");
  } finally {
    await k.stop();
  }

  const next = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await next.client.initialize("test", "0");
    const watch = watchTasks(next.client);
    const state = async (id: string) => (await next.client.request("task/show", { taskId: id })).task.state;
    assert.equal(await state(running.taskId), "orphaned", "the interrupted task waits for a person to resume it");
    const deadline = Date.now() + 30_000;
    while ((await state(queued.taskId)) !== "completed" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await state(queued.taskId), "completed", "the queued task ran at the next start");
    assert.equal((await next.client.request("task/show", { taskId: queued.taskId })).result, "Slow work.");
    assert.ok(!watch.seen.get(queued.taskId)?.includes("orphaned"), "the queued task was never orphaned");
  } finally {
    await next.stop();
  }
});

// delegations.ts through the ControlPlane task API: the background task's lifecycle (queued, running, orphaned,
// resumed, dismissed, ended), what each step records and what it refuses, on real SQLite journals (issue 11).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_REASON_CHARS } from "../../../../../shared/boundedText.js";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { uuidv7 } from "../../../../../shared/ids.js";
import { CLIENT, count, openFixture, type Fixture } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

type Task = ReturnType<Fixture["control"]["createDelegation"]>;

function spawn(f: Fixture, opts: { title?: string; prompt?: string; tools?: string[]; parentSessionId?: string } = {}): Task {
  return f.control.createDelegation(
    {
      parentSessionId: opts.parentSessionId ?? null,
      title: opts.title ?? "bg",
      prompt: opts.prompt ?? "count the files",
      model: "scripted:x",
      tools: opts.tools,
    },
    CLIENT,
  );
}

/** What a free slot and the task's turn do first: the task runs, its attempt starts. */
function start(f: Fixture, t: Task): void {
  f.control.markTaskRunning(t.delegationId);
  f.control.transitionAttempt(t.runId, t.attemptId, "starting");
  f.control.transitionAttempt(t.runId, t.attemptId, "running");
}

/** The task's turn answers and completes, then TaskService settles the task (two commits). */
function complete(f: Fixture, t: Task, answers: string[]): void {
  if (answers.length > 0)
    f.control.appendMessages(
      t.sessionId,
      t.runId,
      answers.map((text) => ({ role: "assistant" as const, text })),
    );
  f.control.finishRun(t.runId, "completed");
  f.control.settleTask(t.delegationId, { status: "completed" });
}

/** A shutdown under a running task: its turn is cancelled, then TaskService orphans the task. */
function orphan(f: Fixture, t: Task, reason = "the kernel shut down while it ran"): void {
  start(f, t);
  f.control.requestCancel(t.runId);
  f.control.finishRun(t.runId, "cancelled");
  f.control.orphanTask(t.delegationId, t.attemptId, reason);
}

interface EventRow {
  entity_kind: string;
  session_id: string | null;
  run_id: string | null;
  type: string;
  payload: Record<string, unknown>;
}

function events(f: Fixture, entityId: string): EventRow[] {
  const rows = f.journal.db
    .prepare(`SELECT entity_kind, session_id, run_id, type, payload_json FROM events WHERE entity_id = ? ORDER BY event_seq`)
    .all(entityId) as (Omit<EventRow, "payload"> & { payload_json: string })[];
  return rows.map(({ payload_json, ...r }) => ({ ...r, payload: JSON.parse(payload_json) as Record<string, unknown> }));
}

function recoveries(f: Fixture, delegationId: string): { interrupted_attempt_id: string; status: string }[] {
  return f.journal.db
    .prepare(`SELECT interrupted_attempt_id, status FROM recovery_dispatches WHERE delegation_id = ? ORDER BY created_at`)
    .all(delegationId) as { interrupted_attempt_id: string; status: string }[];
}

function runRow(f: Fixture, runId: string): { status: string; reason: string | null } {
  return f.journal.db.prepare(`SELECT status, reason FROM runs WHERE run_id = ?`).get(runId) as { status: string; reason: string | null };
}

describe("a task's creation and listing (control plane #4, #18)", () => {
  it("control plane #4: a new task is a queued leaf session in a workstream of its own, with its instruction, and files delegation.created", () => {
    const f = openFixture();
    const t = spawn(f, { title: "inventory", prompt: "count the files" });
    const task = f.control.task(t.delegationId);
    assert.deepEqual(
      { ...task, workstreamId: typeof task.workstreamId, createdAt: typeof task.createdAt, updatedAt: typeof task.updatedAt },
      {
        delegationId: t.delegationId,
        sessionId: t.sessionId,
        runId: t.runId,
        parentSessionId: null,
        workstreamId: "string",
        title: "inventory",
        instruction: "count the files",
        model: "scripted:x",
        tools: [],
        state: "queued",
        reason: null,
        createdAt: "string",
        updatedAt: "string",
        readOnly: false,
        resultArtifactId: null,
      },
    );
    assert.equal(f.control.history(t.sessionId).session.role, "leaf");
    assert.deepEqual(
      events(f, t.delegationId).map((e) => ({ kind: e.entity_kind, type: e.type, session: e.session_id, run: e.run_id })),
      [{ kind: "delegation", type: "delegation.created", session: t.sessionId, run: t.runId }],
    );
    assert.equal(f.control.taskResult(t.delegationId), null, "no result before it completed");
    f.close();
  });

  it("control plane #18: a task started by a coordinator session names it and keeps its tool ceiling", () => {
    const f = openFixture();
    const { sessionId: parent } = f.control.createSession({ title: "chat", model: "scripted:x" });
    const t = spawn(f, { parentSessionId: parent, tools: ["read_file", "list_dir"] });
    const task = f.control.task(t.delegationId);
    assert.equal(task.parentSessionId, parent);
    assert.deepEqual(task.tools, ["read_file", "list_dir"]);
    assert.deepEqual(f.control.taskTools(t.sessionId), ["read_file", "list_dir"]);
    assert.equal(f.control.taskTools(parent), null, "a session that is no task has no task ceiling");
    f.close();
  });

  it("control plane #18: a task from a pre-v5 journal (tools_json NULL) gets the narrowest ceiling, no tools, and task/list says so", () => {
    const f = openFixture();
    const t = spawn(f, { tools: ["read_file"] });
    // What migration v5's ALTER TABLE ... ADD COLUMN leaves in a row written before it.
    f.journal.db.prepare(`UPDATE delegations SET tools_json = NULL WHERE delegation_id = ?`).run(t.delegationId);
    assert.deepEqual(f.control.taskTools(t.sessionId), [], "no ceiling was recorded, so none is widened to every tool");
    assert.deepEqual(f.control.task(t.delegationId).tools, [], "the list shows the ceiling that applies");
    f.close();
  });

  it("control plane #5: an unknown task id is NotFound and another owner's task is refused", () => {
    const f = openFixture();
    const t = spawn(f);
    assert.throws(() => f.control.task(uuidv7()), isCode(ErrorCode.NotFound));
    assert.throws(() => f.control.cancelIdleTask(uuidv7(), "x"), isCode(ErrorCode.NotFound));
    f.journal.close();
    const g = openFixture(f.file, "local:someone-else");
    assert.throws(() => g.control.task(t.delegationId), isCode(ErrorCode.Refused));
    assert.deepEqual(g.control.tasks(), [], "another owner's tasks are not listed");
    assert.deepEqual(g.control.queuedTasks(), [], "nor offered to its slots");
    g.close();
  });

  it("docs/tasks.md: tasks() lists newest first; queuedTasks() offers the queued ones oldest first with the run and attempt a slot drives", () => {
    const f = openFixture();
    const a = spawn(f, { title: "a" });
    const b = spawn(f, { title: "b" });
    assert.deepEqual(
      f.control.tasks().map((t) => t.delegationId),
      [b.delegationId, a.delegationId],
    );
    const offer = (t: Task) => ({ delegationId: t.delegationId, sessionId: t.sessionId, runId: t.runId, attemptId: t.attemptId });
    assert.deepEqual(f.control.queuedTasks(), [offer(a), offer(b)]);
    f.control.markTaskRunning(a.delegationId);
    assert.deepEqual(f.control.queuedTasks(), [offer(b)], "a running task is no longer offered");
    f.close();
  });

  it("docs/tasks.md: a queued task whose run has already ended is not offered to a slot", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.finishRun(t.runId, "failed", "the run failed before a slot took it");
    assert.equal(f.control.task(t.delegationId).state, "queued");
    assert.deepEqual(f.control.queuedTasks(), []);
    f.close();
  });
});

describe("a task's run and its outcome (docs/tasks.md, control plane #12, #20)", () => {
  it("control plane #20: a free slot moves the task queued → running with a delegation.running event under its session and run", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.markTaskRunning(t.delegationId);
    assert.equal(f.control.task(t.delegationId).state, "running");
    const running = events(f, t.delegationId).find((e) => e.type === "delegation.running");
    assert.deepEqual(
      { kind: running?.entity_kind, session: running?.session_id, run: running?.run_id, payload: running?.payload },
      { kind: "delegation", session: t.sessionId, run: t.runId, payload: { from: "queued", to: "running" } },
    );
    f.close();
  });

  it("docs/tasks.md: a completed task records its run's last answer as its task_result artifact", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.equal(f.control.taskResult(t.delegationId), null, "no result while it runs");
    complete(f, t, ["a draft", "there are 12 files"]);
    const task = f.control.task(t.delegationId);
    const artifact = f.journal.db.prepare(`SELECT artifact_id, kind FROM artifacts WHERE run_id = ?`).all(t.runId) as {
      artifact_id: string;
      kind: string;
    }[];
    assert.equal(artifact.length, 1);
    assert.deepEqual(
      { state: task.state, reason: task.reason, resultArtifactId: task.resultArtifactId, kind: artifact[0]!.kind },
      { state: "completed", reason: null, resultArtifactId: artifact[0]!.artifact_id, kind: "task_result" },
    );
    assert.equal(f.control.taskResult(t.delegationId), "there are 12 files");
    f.close();
  });

  it("docs/tasks.md: a completed run that answered nothing records an empty result, never made-up text", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, []);
    assert.equal(f.control.task(t.delegationId).state, "completed");
    assert.equal(f.control.taskResult(t.delegationId), "");
    f.close();
  });

  it("control plane #12: a failed task takes its reason, cut to the bound, records it in delegation.failed and has no result", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.appendMessages(t.sessionId, t.runId, [{ role: "assistant", text: "partial" }]);
    f.control.finishRun(t.runId, "failed", "model failed");
    const reason = `m${"x".repeat(MAX_REASON_CHARS + 50)}`;
    f.control.settleTask(t.delegationId, { status: "failed", reason });
    const task = f.control.task(t.delegationId);
    assert.deepEqual(
      { state: task.state, reason: task.reason, resultArtifactId: task.resultArtifactId },
      { state: "failed", reason: reason.slice(0, MAX_REASON_CHARS), resultArtifactId: null },
    );
    assert.equal(f.control.taskResult(t.delegationId), null);
    assert.equal(
      count(f.journal, `SELECT COUNT(*) AS n FROM artifacts WHERE run_id = ?`, t.runId),
      0,
      "a failed run's partial text is no result",
    );
    const failed = events(f, t.delegationId).find((e) => e.type === "delegation.failed");
    assert.equal(failed?.payload.reason, reason.slice(0, MAX_REASON_CHARS));
    f.close();
  });

  it("docs/tasks.md: a queued task whose run ended before a slot took it takes its run's outcome", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.finishRun(t.runId, "failed", "boom");
    f.control.settleTask(t.delegationId, { status: "failed", reason: "boom" });
    assert.deepEqual(
      { state: f.control.task(t.delegationId).state, reason: f.control.task(t.delegationId).reason },
      { state: "failed", reason: "boom" },
    );
    f.close();
  });

  it("docs/tasks.md: settling a task that was already cancelled or orphaned changes nothing (a cancel, a shutdown)", () => {
    const f = openFixture();
    const orphaned = spawn(f, { title: "o" });
    orphan(f, orphaned);
    f.control.settleTask(orphaned.delegationId, { status: "cancelled", reason: "late settle" });
    assert.equal(f.control.task(orphaned.delegationId).state, "orphaned", "a shutdown's orphan stays resumable");
    const cancelled = spawn(f, { title: "c" });
    f.control.cancelIdleTask(cancelled.delegationId, "not needed");
    assert.doesNotThrow(() => f.control.settleTask(cancelled.delegationId, { status: "completed" }));
    assert.equal(f.control.task(cancelled.delegationId).state, "cancelled");
    assert.equal(f.control.task(cancelled.delegationId).resultArtifactId, null);
    f.close();
  });

  it("docs/tasks.md: a running task whose attempt waits for a person shows waiting_approval, and running again after the answer", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.equal(f.control.task(t.delegationId).state, "running");
    f.control.transitionAttempt(t.runId, t.attemptId, "waiting_approval");
    assert.equal(f.control.task(t.delegationId).state, "waiting_approval");
    f.control.transitionAttempt(t.runId, t.attemptId, "running");
    assert.equal(f.control.task(t.delegationId).state, "running");
    f.close();
  });

  it("docs/tasks.md: an orphaned task is shown orphaned even while its old attempt still waits for approval", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.transitionAttempt(t.runId, t.attemptId, "waiting_approval");
    f.control.orphanTask(t.delegationId, t.attemptId, "the kernel shut down while it ran");
    assert.equal(f.control.task(t.delegationId).state, "orphaned");
    f.close();
  });

  it("docs/tasks.md: between its run's close and its settlement (two commits) a task is still shown running", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.appendMessages(t.sessionId, t.runId, [{ role: "assistant", text: "done" }]);
    f.control.finishRun(t.runId, "completed");
    assert.equal(f.control.task(t.delegationId).state, "running");
    assert.equal(f.control.tasks()[0]?.state, "running");
    f.close();
  });
});

describe("cancelling, orphaning, resuming and dismissing a task (control plane #13, #21)", () => {
  it("control plane #13: cancelling a queued task cancels it and its run at once, with nothing dispatched, and records why", () => {
    const f = openFixture();
    const t = spawn(f);
    const r = f.control.cancelIdleTask(t.delegationId, "not needed");
    assert.deepEqual(r, { dispatchAttempted: false, adapterAcknowledged: false });
    const task = f.control.task(t.delegationId);
    assert.deepEqual({ state: task.state, reason: task.reason }, { state: "cancelled", reason: "not needed" });
    assert.equal(runRow(f, t.runId).status, "cancelled", "its run is cancelled with it");
    const ev = events(f, t.delegationId).find((e) => e.type === "delegation.cancelled");
    assert.deepEqual(ev?.payload, { from: "queued", to: "cancelled", reason: "not needed" });
    f.close();
  });

  it("docs/tasks.md: a running task is cancelled through its turn, never here: Conflict, and it keeps running", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.throws(() => f.control.cancelIdleTask(t.delegationId, "x"), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(t.delegationId).state, "running");
    assert.equal(runRow(f, t.runId).status, "active");
    f.close();
  });

  it("docs/tasks.md: an ended task cannot be cancelled (Conflict)", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, ["ok"]);
    assert.throws(() => f.control.cancelIdleTask(t.delegationId, "x"), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(t.delegationId).state, "completed");
    f.close();
  });

  it("control plane #21: a task orphaned at shutdown keeps its reason and exactly one pending recovery dispatch keyed by its interrupted attempt", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t, "the kernel shut down while it ran");
    const task = f.control.task(t.delegationId);
    assert.deepEqual({ state: task.state, reason: task.reason }, { state: "orphaned", reason: "the kernel shut down while it ran" });
    assert.deepEqual(recoveries(f, t.delegationId), [{ interrupted_attempt_id: t.attemptId, status: "pending" }]);
    const ev = events(f, t.delegationId).find((e) => e.type === "delegation.interrupted");
    assert.deepEqual(
      { session: ev?.session_id, run: ev?.run_id, payload: ev?.payload },
      { session: t.sessionId, run: t.runId, payload: { from: "running", to: "interrupted", reason: "the kernel shut down while it ran" } },
    );
    f.control.orphanTask(t.delegationId, t.attemptId, "again");
    assert.equal(recoveries(f, t.delegationId).length, 1, "a second orphan call adds nothing");
    assert.equal(f.control.task(t.delegationId).reason, "the kernel shut down while it ran");
    f.close();
  });

  it("control plane #21: a shutdown after the task ended leaves it ended, with no recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, ["ok"]);
    assert.doesNotThrow(() => f.control.orphanTask(t.delegationId, t.attemptId, "shutdown"));
    assert.equal(f.control.task(t.delegationId).state, "completed");
    assert.deepEqual(recoveries(f, t.delegationId), []);
    f.close();
  });

  it("control plane #21: resuming an orphaned task takes its recovery dispatch and queues a new run told to check before repeating, then the instruction", () => {
    const f = openFixture();
    const t = spawn(f, { title: "inventory", prompt: "count the files" });
    orphan(f, t);
    f.control.resumeTask(t.delegationId, CLIENT);
    const task = f.control.task(t.delegationId);
    assert.equal(task.state, "queued");
    assert.equal(task.reason, null, "the orphan's reason is cleared");
    assert.notEqual(task.runId, t.runId, "a new run of the same session");
    assert.ok(task.runId);
    assert.equal(runRow(f, t.runId).status, "cancelled", "the old run keeps its outcome");
    assert.deepEqual(recoveries(f, t.delegationId), [{ interrupted_attempt_id: t.attemptId, status: "dispatched" }]);
    const message = f.control.runContext(task.runId).userMessage;
    assert.match(message, /previous run was interrupted when the Hearth kernel stopped/);
    assert.match(message, /a call whose outcome is unknown may or may not have\s+taken effect/);
    assert.match(message, /check before repeating it/);
    assert.ok(message.endsWith("The task: count the files"), message);
    const queued = events(f, t.delegationId).filter((e) => e.type === "delegation.queued");
    assert.deepEqual(
      queued.map((e) => ({ run: e.run_id, payload: e.payload })),
      [{ run: task.runId, payload: { from: "interrupted", to: "queued" } }],
    );
    const [offer] = f.control.queuedTasks();
    assert.deepEqual({ id: offer?.delegationId, run: offer?.runId }, { id: t.delegationId, run: task.runId });
    f.close();
  });

  it("control plane #12 #21: resuming an orphaned task whose old run is still active without an attempt closes that run failed first", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.transitionAttempt(t.runId, t.attemptId, "failed", "worker died");
    f.control.orphanTask(t.delegationId, t.attemptId, "the kernel shut down while it ran");
    assert.equal(runRow(f, t.runId).status, "active");
    f.control.resumeTask(t.delegationId, CLIENT);
    const old = runRow(f, t.runId);
    assert.equal(old.status, "failed", "never completed: silence is not success");
    assert.match(old.reason ?? "", /resumed as a new run/);
    const task = f.control.task(t.delegationId);
    assert.equal(task.state, "queued");
    assert.notEqual(task.runId, t.runId);
    f.close();
  });

  it("docs/tasks.md: only an orphaned task can be resumed or dismissed (Conflict), and nothing changes", () => {
    const f = openFixture();
    const queued = spawn(f, { title: "q" });
    assert.throws(() => f.control.resumeTask(queued.delegationId, CLIENT), isCode(ErrorCode.Conflict));
    assert.throws(() => f.control.dismissTask(queued.delegationId), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(queued.delegationId).state, "queued");
    assert.equal(runRow(f, queued.runId).status, "active");
    const done = spawn(f, { title: "d" });
    start(f, done);
    complete(f, done, ["ok"]);
    assert.throws(() => f.control.resumeTask(done.delegationId, CLIENT), isCode(ErrorCode.Conflict));
    assert.throws(() => f.control.dismissTask(done.delegationId), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(done.delegationId).state, "completed");
    assert.equal(f.control.history(done.sessionId).runs.length, 1, "no new run was admitted");
    f.close();
  });

  it("docs/tasks.md: dismissing an orphaned task ends it cancelled, says why, and abandons its recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t);
    f.control.dismissTask(t.delegationId);
    const task = f.control.task(t.delegationId);
    assert.equal(task.state, "cancelled");
    assert.match(task.reason ?? "", /dismissed/);
    assert.deepEqual(recoveries(f, t.delegationId), [{ interrupted_attempt_id: t.attemptId, status: "abandoned" }]);
    f.close();
  });

  it("control plane #13: cancelling an orphaned task ends it cancelled with nothing dispatched and abandons its recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t);
    const r = f.control.cancelIdleTask(t.delegationId, "cancelled by the user");
    assert.deepEqual(r, { dispatchAttempted: false, adapterAcknowledged: false });
    assert.deepEqual(
      { state: f.control.task(t.delegationId).state, reason: f.control.task(t.delegationId).reason },
      { state: "cancelled", reason: "cancelled by the user" },
    );
    assert.deepEqual(recoveries(f, t.delegationId), [{ interrupted_attempt_id: t.attemptId, status: "abandoned" }]);
    f.close();
  });
});

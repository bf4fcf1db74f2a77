// tasks.ts through the ControlPlane task API: the background task's lifecycle (queued, running, orphaned,
// resumed, dismissed, ended), what each step records and what it refuses, on real SQLite journals (issue 11).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_REASON_CHARS } from "../../../../../shared/boundedText.js";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { uuidv7 } from "../../../../../shared/ids.js";
import { CLIENT, count, openFixture, type Fixture } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

type Task = ReturnType<Fixture["control"]["createTask"]>;

function spawn(f: Fixture, opts: { title?: string; prompt?: string; tools?: string[]; parentSessionId?: string } = {}): Task {
  return f.control.createTask(
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
  f.control.markTaskRunning(t.taskId);
  f.control.transitionAttempt(t.turnId, t.attemptId, "starting");
  f.control.transitionAttempt(t.turnId, t.attemptId, "running");
}

/** The task's turn answers and completes, then TaskService settles the task (two commits). */
function complete(f: Fixture, t: Task, answers: string[]): void {
  if (answers.length > 0)
    f.control.appendMessages(
      t.sessionId,
      t.turnId,
      answers.map((text) => ({ role: "assistant" as const, text })),
    );
  f.control.finishTurn(t.turnId, "completed");
  f.control.settleTask(t.taskId, { status: "completed" });
}

/** A shutdown under a running task: its turn is cancelled, then TaskService orphans the task. */
function orphan(f: Fixture, t: Task, reason = "the kernel shut down while it ran"): void {
  start(f, t);
  f.control.requestCancel(t.turnId);
  f.control.finishTurn(t.turnId, "cancelled");
  f.control.orphanTask(t.taskId, t.attemptId, reason);
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

function recoveries(f: Fixture, taskId: string): { interrupted_attempt_id: string; status: string }[] {
  return f.journal.db
    .prepare(`SELECT interrupted_attempt_id, status FROM recovery_dispatches WHERE delegation_id = ? ORDER BY created_at`)
    .all(taskId) as { interrupted_attempt_id: string; status: string }[];
}

function runRow(f: Fixture, turnId: string): { status: string; reason: string | null } {
  return f.journal.db.prepare(`SELECT status, reason FROM runs WHERE run_id = ?`).get(turnId) as { status: string; reason: string | null };
}

describe("a task's creation and listing (control plane #4, #18)", () => {
  it("control plane #4: a new task is a queued leaf session in a workstream of its own, with its instruction, and files delegation.created", () => {
    const f = openFixture();
    const t = spawn(f, { title: "inventory", prompt: "count the files" });
    const task = f.control.task(t.taskId);
    assert.deepEqual(
      { ...task, workstreamId: typeof task.workstreamId, createdAt: typeof task.createdAt, updatedAt: typeof task.updatedAt },
      {
        taskId: t.taskId,
        sessionId: t.sessionId,
        turnId: t.turnId,
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
      events(f, t.taskId).map((e) => ({ kind: e.entity_kind, type: e.type, session: e.session_id, run: e.run_id })),
      [{ kind: "delegation", type: "delegation.created", session: t.sessionId, run: t.turnId }],
    );
    assert.equal(f.control.taskResult(t.taskId), null, "no result before it completed");
    f.close();
  });

  it("control plane #18: a task started by a coordinator session names it and keeps its tool ceiling", () => {
    const f = openFixture();
    const { sessionId: parent } = f.control.createSession({ title: "chat", model: "scripted:x" });
    const t = spawn(f, { parentSessionId: parent, tools: ["read_file", "list_dir"] });
    const task = f.control.task(t.taskId);
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
    f.journal.db.prepare(`UPDATE delegations SET tools_json = NULL WHERE delegation_id = ?`).run(t.taskId);
    assert.deepEqual(f.control.taskTools(t.sessionId), [], "no ceiling was recorded, so none is widened to every tool");
    assert.deepEqual(f.control.task(t.taskId).tools, [], "the list shows the ceiling that applies");
    f.close();
  });

  it("control plane #5: an unknown task id is NotFound and another owner's task is refused", () => {
    const f = openFixture();
    const t = spawn(f);
    assert.throws(() => f.control.task(uuidv7()), isCode(ErrorCode.NotFound));
    assert.throws(() => f.control.cancelIdleTask(uuidv7(), "x"), isCode(ErrorCode.NotFound));
    f.journal.close();
    const g = openFixture(f.file, "local:someone-else");
    assert.throws(() => g.control.task(t.taskId), isCode(ErrorCode.Refused));
    assert.deepEqual(g.control.tasks(), [], "another owner's tasks are not listed");
    assert.deepEqual(g.control.queuedTasks(), [], "nor offered to its slots");
    g.close();
  });

  it("docs/tasks.md: tasks() lists newest first; queuedTasks() offers the queued ones oldest first with the run and attempt a slot drives", () => {
    const f = openFixture();
    const a = spawn(f, { title: "a" });
    const b = spawn(f, { title: "b" });
    assert.deepEqual(
      f.control.tasks().map((t) => t.taskId),
      [b.taskId, a.taskId],
    );
    const offer = (t: Task) => ({ taskId: t.taskId, sessionId: t.sessionId, turnId: t.turnId, attemptId: t.attemptId });
    assert.deepEqual(f.control.queuedTasks(), [offer(a), offer(b)]);
    f.control.markTaskRunning(a.taskId);
    assert.deepEqual(f.control.queuedTasks(), [offer(b)], "a running task is no longer offered");
    f.close();
  });

  it("docs/tasks.md: a queued task whose run has already ended is not offered to a slot", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.finishTurn(t.turnId, "failed", "the run failed before a slot took it");
    assert.equal(f.control.task(t.taskId).state, "queued");
    assert.deepEqual(f.control.queuedTasks(), []);
    f.close();
  });
});

describe("a task's run and its outcome (docs/tasks.md, control plane #12, #20)", () => {
  it("control plane #20: a free slot moves the task queued → running with a delegation.running event under its session and run", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.markTaskRunning(t.taskId);
    assert.equal(f.control.task(t.taskId).state, "running");
    const running = events(f, t.taskId).find((e) => e.type === "delegation.running");
    assert.deepEqual(
      { kind: running?.entity_kind, session: running?.session_id, run: running?.run_id, payload: running?.payload },
      { kind: "delegation", session: t.sessionId, run: t.turnId, payload: { from: "queued", to: "running" } },
    );
    f.close();
  });

  it("docs/tasks.md: a completed task records its run's last answer as its task_result artifact", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.equal(f.control.taskResult(t.taskId), null, "no result while it runs");
    complete(f, t, ["a draft", "there are 12 files"]);
    const task = f.control.task(t.taskId);
    const artifact = f.journal.db.prepare(`SELECT artifact_id, kind FROM artifacts WHERE run_id = ?`).all(t.turnId) as {
      artifact_id: string;
      kind: string;
    }[];
    assert.equal(artifact.length, 1);
    assert.deepEqual(
      { state: task.state, reason: task.reason, resultArtifactId: task.resultArtifactId, kind: artifact[0]!.kind },
      { state: "completed", reason: null, resultArtifactId: artifact[0]!.artifact_id, kind: "task_result" },
    );
    assert.equal(f.control.taskResult(t.taskId), "there are 12 files");
    f.close();
  });

  it("docs/tasks.md: a completed run that answered nothing records an empty result, never made-up text", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, []);
    assert.equal(f.control.task(t.taskId).state, "completed");
    assert.equal(f.control.taskResult(t.taskId), "");
    f.close();
  });

  it("control plane #12: a failed task takes its reason, cut to the bound, records it in delegation.failed and has no result", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.appendMessages(t.sessionId, t.turnId, [{ role: "assistant", text: "partial" }]);
    f.control.finishTurn(t.turnId, "failed", "model failed");
    const reason = `m${"x".repeat(MAX_REASON_CHARS + 50)}`;
    f.control.settleTask(t.taskId, { status: "failed", reason });
    const task = f.control.task(t.taskId);
    assert.deepEqual(
      { state: task.state, reason: task.reason, resultArtifactId: task.resultArtifactId },
      { state: "failed", reason: reason.slice(0, MAX_REASON_CHARS), resultArtifactId: null },
    );
    assert.equal(f.control.taskResult(t.taskId), null);
    assert.equal(
      count(f.journal, `SELECT COUNT(*) AS n FROM artifacts WHERE run_id = ?`, t.turnId),
      0,
      "a failed run's partial text is no result",
    );
    const failed = events(f, t.taskId).find((e) => e.type === "delegation.failed");
    assert.equal(failed?.payload.reason, reason.slice(0, MAX_REASON_CHARS));
    f.close();
  });

  it("docs/tasks.md: a queued task whose run ended before a slot took it takes its run's outcome", () => {
    const f = openFixture();
    const t = spawn(f);
    f.control.finishTurn(t.turnId, "failed", "boom");
    f.control.settleTask(t.taskId, { status: "failed", reason: "boom" });
    assert.deepEqual(
      { state: f.control.task(t.taskId).state, reason: f.control.task(t.taskId).reason },
      { state: "failed", reason: "boom" },
    );
    f.close();
  });

  it("docs/tasks.md: settling a task that was already cancelled or orphaned changes nothing (a cancel, a shutdown)", () => {
    const f = openFixture();
    const orphaned = spawn(f, { title: "o" });
    orphan(f, orphaned);
    f.control.settleTask(orphaned.taskId, { status: "cancelled", reason: "late settle" });
    assert.equal(f.control.task(orphaned.taskId).state, "orphaned", "a shutdown's orphan stays resumable");
    const cancelled = spawn(f, { title: "c" });
    f.control.cancelIdleTask(cancelled.taskId, "not needed");
    assert.doesNotThrow(() => f.control.settleTask(cancelled.taskId, { status: "completed" }));
    assert.equal(f.control.task(cancelled.taskId).state, "cancelled");
    assert.equal(f.control.task(cancelled.taskId).resultArtifactId, null);
    f.close();
  });

  it("docs/tasks.md: a running task whose attempt waits for a person shows waiting_approval, and running again after the answer", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.equal(f.control.task(t.taskId).state, "running");
    f.control.transitionAttempt(t.turnId, t.attemptId, "waiting_approval");
    assert.equal(f.control.task(t.taskId).state, "waiting_approval");
    f.control.transitionAttempt(t.turnId, t.attemptId, "running");
    assert.equal(f.control.task(t.taskId).state, "running");
    f.close();
  });

  it("docs/tasks.md: an orphaned task is shown orphaned even while its old attempt still waits for approval", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.transitionAttempt(t.turnId, t.attemptId, "waiting_approval");
    f.control.orphanTask(t.taskId, t.attemptId, "the kernel shut down while it ran");
    assert.equal(f.control.task(t.taskId).state, "orphaned");
    f.close();
  });

  it("docs/tasks.md: between its run's close and its settlement (two commits) a task is still shown running", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.appendMessages(t.sessionId, t.turnId, [{ role: "assistant", text: "done" }]);
    f.control.finishTurn(t.turnId, "completed");
    assert.equal(f.control.task(t.taskId).state, "running");
    assert.equal(f.control.tasks()[0]?.state, "running");
    f.close();
  });
});

describe("cancelling, orphaning, resuming and dismissing a task (control plane #13, #21)", () => {
  it("control plane #13: cancelling a queued task cancels it and its run at once, with nothing dispatched, and records why", () => {
    const f = openFixture();
    const t = spawn(f);
    const r = f.control.cancelIdleTask(t.taskId, "not needed");
    assert.deepEqual(r, { dispatchAttempted: false, adapterAcknowledged: false });
    const task = f.control.task(t.taskId);
    assert.deepEqual({ state: task.state, reason: task.reason }, { state: "cancelled", reason: "not needed" });
    assert.equal(runRow(f, t.turnId).status, "cancelled", "its run is cancelled with it");
    const ev = events(f, t.taskId).find((e) => e.type === "delegation.cancelled");
    assert.deepEqual(ev?.payload, { from: "queued", to: "cancelled", reason: "not needed" });
    f.close();
  });

  it("docs/tasks.md: a running task is cancelled through its turn, never here: Conflict, and it keeps running", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    assert.throws(() => f.control.cancelIdleTask(t.taskId, "x"), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(t.taskId).state, "running");
    assert.equal(runRow(f, t.turnId).status, "active");
    f.close();
  });

  it("docs/tasks.md: an ended task cannot be cancelled (Conflict)", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, ["ok"]);
    assert.throws(() => f.control.cancelIdleTask(t.taskId, "x"), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(t.taskId).state, "completed");
    f.close();
  });

  it("control plane #21: a task orphaned at shutdown keeps its reason and exactly one pending recovery dispatch keyed by its interrupted attempt", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t, "the kernel shut down while it ran");
    const task = f.control.task(t.taskId);
    assert.deepEqual({ state: task.state, reason: task.reason }, { state: "orphaned", reason: "the kernel shut down while it ran" });
    assert.deepEqual(recoveries(f, t.taskId), [{ interrupted_attempt_id: t.attemptId, status: "pending" }]);
    const ev = events(f, t.taskId).find((e) => e.type === "delegation.interrupted");
    assert.deepEqual(
      { session: ev?.session_id, run: ev?.run_id, payload: ev?.payload },
      { session: t.sessionId, run: t.turnId, payload: { from: "running", to: "interrupted", reason: "the kernel shut down while it ran" } },
    );
    f.control.orphanTask(t.taskId, t.attemptId, "again");
    assert.equal(recoveries(f, t.taskId).length, 1, "a second orphan call adds nothing");
    assert.equal(f.control.task(t.taskId).reason, "the kernel shut down while it ran");
    f.close();
  });

  it("control plane #21: a shutdown after the task ended leaves it ended, with no recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    complete(f, t, ["ok"]);
    assert.doesNotThrow(() => f.control.orphanTask(t.taskId, t.attemptId, "shutdown"));
    assert.equal(f.control.task(t.taskId).state, "completed");
    assert.deepEqual(recoveries(f, t.taskId), []);
    f.close();
  });

  it("control plane #21: resuming an orphaned task takes its recovery dispatch and queues a new run told to check before repeating, then the instruction", () => {
    const f = openFixture();
    const t = spawn(f, { title: "inventory", prompt: "count the files" });
    orphan(f, t);
    f.control.resumeTask(t.taskId, CLIENT);
    const task = f.control.task(t.taskId);
    assert.equal(task.state, "queued");
    assert.equal(task.reason, null, "the orphan's reason is cleared");
    assert.notEqual(task.turnId, t.turnId, "a new run of the same session");
    assert.ok(task.turnId);
    assert.equal(runRow(f, t.turnId).status, "cancelled", "the old run keeps its outcome");
    assert.deepEqual(recoveries(f, t.taskId), [{ interrupted_attempt_id: t.attemptId, status: "dispatched" }]);
    const message = f.control.turnContext(task.turnId).userMessage;
    assert.match(message, /previous run was interrupted when the Hearth kernel stopped/);
    assert.match(message, /a call whose outcome is unknown may or may not have\s+taken effect/);
    assert.match(message, /check before repeating it/);
    assert.ok(message.endsWith("The task: count the files"), message);
    const queued = events(f, t.taskId).filter((e) => e.type === "delegation.queued");
    assert.deepEqual(
      queued.map((e) => ({ run: e.run_id, payload: e.payload })),
      [{ run: task.turnId, payload: { from: "interrupted", to: "queued" } }],
    );
    const [offer] = f.control.queuedTasks();
    assert.deepEqual({ id: offer?.taskId, run: offer?.turnId }, { id: t.taskId, run: task.turnId });
    f.close();
  });

  it("control plane #12 #21: resuming an orphaned task whose old run is still active without an attempt closes that run failed first", () => {
    const f = openFixture();
    const t = spawn(f);
    start(f, t);
    f.control.transitionAttempt(t.turnId, t.attemptId, "failed", "worker died");
    f.control.orphanTask(t.taskId, t.attemptId, "the kernel shut down while it ran");
    assert.equal(runRow(f, t.turnId).status, "active");
    f.control.resumeTask(t.taskId, CLIENT);
    const old = runRow(f, t.turnId);
    assert.equal(old.status, "failed", "never completed: silence is not success");
    assert.match(old.reason ?? "", /resumed as a new run/);
    const task = f.control.task(t.taskId);
    assert.equal(task.state, "queued");
    assert.notEqual(task.turnId, t.turnId);
    f.close();
  });

  it("docs/tasks.md: only an orphaned task can be resumed or dismissed (Conflict), and nothing changes", () => {
    const f = openFixture();
    const queued = spawn(f, { title: "q" });
    assert.throws(() => f.control.resumeTask(queued.taskId, CLIENT), isCode(ErrorCode.Conflict));
    assert.throws(() => f.control.dismissTask(queued.taskId), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(queued.taskId).state, "queued");
    assert.equal(runRow(f, queued.turnId).status, "active");
    const done = spawn(f, { title: "d" });
    start(f, done);
    complete(f, done, ["ok"]);
    assert.throws(() => f.control.resumeTask(done.taskId, CLIENT), isCode(ErrorCode.Conflict));
    assert.throws(() => f.control.dismissTask(done.taskId), isCode(ErrorCode.Conflict));
    assert.equal(f.control.task(done.taskId).state, "completed");
    assert.equal(f.control.history(done.sessionId).runs.length, 1, "no new run was admitted");
    f.close();
  });

  it("docs/tasks.md: dismissing an orphaned task ends it cancelled, says why, and abandons its recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t);
    f.control.dismissTask(t.taskId);
    const task = f.control.task(t.taskId);
    assert.equal(task.state, "cancelled");
    assert.match(task.reason ?? "", /dismissed/);
    assert.deepEqual(recoveries(f, t.taskId), [{ interrupted_attempt_id: t.attemptId, status: "abandoned" }]);
    f.close();
  });

  it("control plane #13: cancelling an orphaned task ends it cancelled with nothing dispatched and abandons its recovery", () => {
    const f = openFixture();
    const t = spawn(f);
    orphan(f, t);
    const r = f.control.cancelIdleTask(t.taskId, "cancelled by the user");
    assert.deepEqual(r, { dispatchAttempted: false, adapterAcknowledged: false });
    assert.deepEqual(
      { state: f.control.task(t.taskId).state, reason: f.control.task(t.taskId).reason },
      { state: "cancelled", reason: "cancelled by the user" },
    );
    assert.deepEqual(recoveries(f, t.taskId), [{ interrupted_attempt_id: t.attemptId, status: "abandoned" }]);
    f.close();
  });
});

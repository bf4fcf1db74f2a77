// The set-based startup repair (issue 26, item 3) leaves the journal the per-run repair left: the
// same crash, copied and reconciled both ways (the kernel's reconcile, and the per-run oracle in
// test/support/perRunBatchRepair.ts), gives the same statuses, the same restored history rows byte
// for byte, and the same lifecycle events (spec 004: a state transition and its event commit
// together; harness #6: every call of a cut-off batch has its result). One difference is by design:
// a session's restored runs are one append, so one `journal.appended` event covers the seqs that
// the per-run repair covered with one event per run.
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../../../shared/ids.js";
import { openJournal, type Journal } from "../../../../../sidecar/journal/journal.js";
import { reconcileRunByRun } from "../../../../support/perRunBatchRepair.js";
import { CLIENT, completedTurn, type Fixture, invocation, openFixture, runningRun } from "../../../../support/journalFixture.js";

/** An input no hand-built JSON would get right: escapes, non-ASCII, nesting, number forms. */
const AWKWARD_INPUT = {
  path: "dir/ä ö.txt",
  text: 'line 1\nline 2\t"quoted" \\ ✓ 😀 \u0001 \u2028',
  n: 1.5,
  big: 1e21,
  small: 1e-7,
  neg: -2,
  list: [1, "two", { three: null }],
  flag: true,
  ключ: "é",
};

/** Every shape a crash leaves, in one journal; the kernel is killed (the file closed) without reconciling. */
function crashedJournal(): string {
  const f = openFixture();
  // A session made first whose run is cut off last: the repair goes session by session, not by run age.
  const early = f.control.createSession({ title: "early", model: "scripted:demo" });
  // A write cut off while running, after a call that never started: both go back, with their outcomes.
  const cut = runningRun(f);
  f.control.prepareInvocation(invocation(cut, "never-started", "read_file", "read", { input: { path: "a.txt" } }));
  f.control.markDispatched(
    f.control.prepareInvocation(invocation(cut, "running", "write_file", "non_idempotent_write", { input: AWKWARD_INPUT })),
  );
  // A session with history, a finished run still holding its running attempt and call (an older
  // build's crash), and its newest run cut off: both restored after the history, in run order.
  const { sessionId } = f.control.createSession({ title: "long", model: "scripted:demo" });
  completedTurn(f, sessionId, "first");
  for (const n of [1, 2]) {
    const { turnId, attemptId } = f.control.admitTurn(sessionId, `turn ${n}`, CLIENT);
    f.control.transitionAttempt(turnId, attemptId, "starting");
    f.control.transitionAttempt(turnId, attemptId, "running");
    for (const c of ["x", "y"])
      f.control.markDispatched(
        f.control.prepareInvocation(
          invocation({ turnId, attemptId }, `${c}-${n}`, "shell", "non_idempotent_write", { input: { command: `make ${c}` } }),
        ),
      );
    if (n === 1) f.journal.db.prepare(`UPDATE runs SET status = 'failed' WHERE run_id = ?`).run(turnId);
  }
  // A call dispatched and settled failed whose batch never committed: it may have had an effect.
  const settled = runningRun(f);
  const failed = f.control.prepareInvocation(
    invocation(settled, "exit-2", "shell", "non_idempotent_write", { input: { command: "make" } }),
  );
  f.control.markDispatched(failed);
  f.control.completeInvocation(failed, { status: "failed", reason: "exit 2" });
  // Calls that were never dispatched: the harness rolled the run back, so nothing is restored.
  const rolledBack = runningRun(f);
  f.control.prepareInvocation(invocation(rolledBack, "proposed", "edit_file", "idempotent_write", { input: { path: "b.txt" } }));
  // A finished turn with its committed batch, and an interrupted task: neither has a batch to restore.
  const done = runningRun(f);
  const call = uuidv7();
  const claim = f.control.prepareInvocation(invocation(done, call, "read_file", "read", { input: { path: "c.txt" } }));
  f.control.markDispatched(claim);
  f.control.appendMessages(
    done.sessionId,
    done.turnId,
    [
      { role: "assistant", text: "", toolCalls: [{ callId: call, name: "read_file", arguments: { path: "c.txt" } }] },
      { role: "tool", callId: call, name: "read_file", ok: true, output: "c" },
    ],
    [{ claim, outcome: { status: "succeeded" } }],
  );
  f.control.finishTurn(done.turnId, "completed");
  const late = f.control.admitTurn(early.sessionId, "late", CLIENT);
  f.control.transitionAttempt(late.turnId, late.attemptId, "starting");
  f.control.transitionAttempt(late.turnId, late.attemptId, "running");
  f.control.markDispatched(
    f.control.prepareInvocation(invocation(late, "late-call", "write_file", "non_idempotent_write", { input: { path: "l" } })),
  );
  const task = f.control.createTask({ parentSessionId: null, title: "bg", prompt: "work", model: "scripted:x" }, CLIENT);
  f.control.transitionAttempt(task.turnId, task.attemptId, "starting");
  f.close();
  return f.file;
}

function copyOf(file: string, name: string): string {
  const copy = `${file}.${name}`;
  fs.copyFileSync(file, copy);
  return copy;
}

/** What a row says, without what differs by when or by a fresh id: the repair's own timestamps and uuids. */
function masked(row: Record<string, unknown>, since: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] =
      (k === "created_at" || k === "updated_at") && typeof v === "string" && v >= since ? "<repair>" : k === "recovery_id" ? "<id>" : v;
  return out;
}

/** Every table but the events, each as a sorted list of its masked rows (rowids differ by insert order). */
function tables(j: Journal, since: string): Record<string, string[]> {
  const names = (
    j.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'events'`).all() as {
      name: string;
    }[]
  ).map((t) => t.name);
  return Object.fromEntries(
    names.map((t) => [
      t,
      (j.db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((r) => JSON.stringify(masked(r, since))).sort(),
    ]),
  );
}

interface EventRow {
  entity_kind: string;
  entity_id: string;
  session_id: string | null;
  run_id: string | null;
  type: string;
  payload_json: string;
  created_at: string;
}

function events(j: Journal, since: string) {
  const rows = j.db
    .prepare(`SELECT entity_kind, entity_id, session_id, run_id, type, payload_json, created_at FROM events ORDER BY event_seq`)
    .all() as EventRow[];
  const appended = rows.filter((e) => e.type === "journal.appended" && e.created_at >= since);
  /** Each session's seqs that the repair's `journal.appended` events name. */
  const covered = new Map<string, number[]>();
  for (const e of appended) {
    const { fromSeq, toSeq } = JSON.parse(e.payload_json) as { fromSeq: number; toSeq: number };
    for (let seq = fromSeq; seq <= toSeq; seq++) covered.set(e.entity_id, [...(covered.get(e.entity_id) ?? []), seq]);
  }
  return {
    lifecycle: rows.filter((e) => !appended.includes(e)).map((e) => masked({ ...e }, since)),
    appendedBySession: Object.fromEntries([...covered].map(([s, seqs]) => [s, [...seqs].sort((a, b) => a - b)]).sort()),
    appendedEvents: appended.length,
  };
}

describe("the set-based startup repair against the per-run one (issue 26 item 3; spec 004 persistence; harness #6)", () => {
  it("the same crash reconciled both ways leaves the same statuses, history rows and lifecycle events", () => {
    const crashed = crashedJournal();
    const since = new Date().toISOString();
    const setBased: Fixture = openFixture(copyOf(crashed, "set-based"));
    const report = setBased.control.reconcile();
    const perRun = openJournal(copyOf(crashed, "per-run"));
    const perRunRepaired = reconcileRunByRun(perRun);
    try {
      assert.equal(report.batchesRepaired, 5, "the cut-off write, both runs of the long session, the settled failure, the late run");
      assert.equal(report.batchesRepaired, perRunRepaired, "the same runs repaired");
      const a = tables(setBased.journal, since);
      const b = tables(perRun, since);
      for (const t of Object.keys(b)) assert.deepEqual(a[t], b[t], `table ${t}`);
      assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort());
      const ea = events(setBased.journal, since);
      const eb = events(perRun, since);
      assert.deepEqual(ea.lifecycle, eb.lifecycle, "every status change's event and every batch_repaired event, in the same order");
      assert.deepEqual(ea.appendedBySession, eb.appendedBySession, "the same seqs are named appended");
      assert.equal(eb.appendedEvents, 5, "the per-run repair filed one append per run");
      assert.equal(ea.appendedEvents, 4, "the set-based one, one per session (the long session's two runs are one append)");
    } finally {
      setBased.close();
      perRun.close();
    }
  });
});

// Batch repair after a crash (harness #6, control plane #12, #21): a cut-off batch returns to history as the calls the model made, each with a truthful result, and the repair is recorded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../../../shared/ids.js";
import Database from "better-sqlite3";
import { type Fixture, invocation, openFixture, runningRun } from "../../../../support/journalFixture.js";

/** A run the kernel died under: one call still `prepared` (never started), one `dispatched` (running). */
function cutOffBatch(f: Fixture) {
  const run = runningRun(f);
  const [notStarted, running] = [uuidv7(), uuidv7()];
  f.control.prepareInvocation(invocation(run, notStarted, "read_file", "read", { input: { path: "a.txt" } }));
  const b = f.control.prepareInvocation(
    invocation(run, running, "write_file", "non_idempotent_write", { input: { path: "b.txt", text: "hi" } }),
  );
  f.control.markDispatched(b);
  return { ...run, notStarted, running };
}

describe("repairInterruptedBatches (harness #6, control plane #21)", () => {
  it("harness #6: the restored batch is the calls as the model issued them, with no text the model never wrote", () => {
    let f = openFixture();
    const { sessionId, notStarted, running } = cutOffBatch(f);
    f = f.restart();
    const messages = f.control.history(sessionId).messages;
    const assistant = messages.filter((m) => m.role === "assistant");
    assert.equal(assistant.length, 1);
    const a = assistant[0]!;
    assert.ok(a.role === "assistant");
    assert.equal(a.text, "", "the repair adds the calls, not words in the model's name");
    assert.deepEqual(a.toolCalls, [
      { callId: notStarted, name: "read_file", arguments: { path: "a.txt" } },
      { callId: running, name: "write_file", arguments: { path: "b.txt", text: "hi" } },
    ]);
    f.close();
  });

  it("harness #6 / control plane #12: a call that never started reads `not run: …`, a dispatched one says its outcome is unknown and that it was not re-run", () => {
    let f = openFixture();
    const { sessionId, notStarted, running } = cutOffBatch(f);
    f = f.restart();
    const results = new Map(f.control.history(sessionId).messages.flatMap((m) => (m.role === "tool" ? [[m.callId, m] as const] : [])));
    const never = results.get(notStarted);
    const unknown = results.get(running);
    assert.ok(never && unknown, "every call of the batch has its result");
    assert.equal(never.ok, false);
    assert.ok(never.output.startsWith("not run: "), `a synthetic result of a call that never ran: ${never.output}`);
    assert.match(never.output, /read_file/, "it names the tool");
    assert.equal(unknown.ok, false);
    assert.equal(
      unknown.resultKind,
      "claimed",
      `a dispatched call may have run: its result answers its ledger claim, not one of a call that never ran: ${unknown.output}`,
    );
    assert.match(unknown.output, /outcome unknown/, "silence is not success: the result says the outcome is unknown");
    assert.match(unknown.output, /write_file/, "it names the tool");
    assert.match(unknown.output, /not re-run/, "and that the kernel did not repeat it");
    f.close();
  });

  it("control plane #21: each repaired batch files one `journal.batch_repaired` event under its run, naming its calls", () => {
    let f = openFixture();
    const first = cutOffBatch(f);
    const second = cutOffBatch(f);
    f = f.restart();
    const rows = f.journal.db
      .prepare(
        `SELECT entity_kind, entity_id, session_id, run_id, payload_json FROM events WHERE type = 'journal.batch_repaired' ORDER BY event_seq`,
      )
      .all();
    const expected = (b: typeof first) => ({
      entity_kind: "run",
      entity_id: b.turnId,
      session_id: b.sessionId,
      run_id: b.turnId,
      payload_json: JSON.stringify({ calls: [b.notStarted, b.running] }),
    });
    assert.deepEqual(
      rows,
      [expected(first), expected(second)].sort((x, y) => x.session_id.localeCompare(y.session_id)),
    );
    f = f.restart();
    assert.equal(
      f.journal.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'journal.batch_repaired'`).pluck().get(),
      2,
      "none twice",
    );
    f.close();
  });
  it("harness #10, #13: a batch the harness rolled back (its one call settled failed before dispatch) stays out of history after any restart", () => {
    let f = openFixture();
    const rolledBack = (why: string) => {
      const run = runningRun(f);
      const callId = uuidv7();
      const claim = f.control.prepareInvocation(invocation(run, callId, "edit_file", "idempotent_write", { input: { path: "a.txt" } }));
      f.control.completeInvocation(claim, { status: "failed", reason: why });
      f.control.finishTurn(run.turnId, "failed", why, { messages: [], completions: [] });
      return run;
    };
    const runs = [rolledBack("oldText was not found in a.txt"), rolledBack("cancelled before dispatch")];
    const before = runs.map((r) => f.control.history(r.sessionId).messages);
    f = f.restart();
    f = f.restart();
    for (const [i, r] of runs.entries()) {
      const messages = f.control.history(r.sessionId).messages;
      assert.deepEqual(messages, before[i], "no call and no made-up `not run` result were put back");
      assert.deepEqual(
        messages.map((m) => m.role),
        ["user"],
      );
    }
    assert.equal(f.journal.db.prepare(`SELECT COUNT(*) AS n FROM events WHERE type = 'journal.batch_repaired'`).pluck().get(), 0);
    f.close();
  });

  it("harness #6: a call dispatched and settled failed whose batch never committed may have had an effect, so it is restored", () => {
    let f = openFixture();
    const run = runningRun(f);
    const callId = uuidv7();
    const claim = f.control.prepareInvocation(invocation(run, callId, "shell", "non_idempotent_write", { input: { command: "make" } }));
    f.control.markDispatched(claim);
    f.control.completeInvocation(claim, { status: "failed", reason: "exit 2" });
    f = f.restart();
    const results = f.control.history(run.sessionId).messages.filter((m) => m.role === "tool");
    assert.deepEqual(
      results.map((m) => m.role === "tool" && m.callId),
      [callId],
    );
    f.close();
  });

  it("issue 26 item 3: a startup repair runs the same statements for 3 cut-off runs as for 60, so its cost per run does not grow with the count", () => {
    /** Statements executed (run/get/all/iterate) and SQL texts exec'd while one reconciliation runs. */
    const statementsOfRepair = (runs: number): number => {
      let f = openFixture();
      for (let i = 0; i < runs; i++) cutOffBatch(f);
      f.journal.close();
      f = openFixture(f.file);
      const statement = Object.getPrototypeOf(f.journal.db.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
      const database = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
      let executed = 0;
      const originals = new Map<[Record<string, (...a: unknown[]) => unknown>, string], (...a: unknown[]) => unknown>();
      for (const [target, method] of [
        [statement, "run"],
        [statement, "get"],
        [statement, "all"],
        [statement, "iterate"],
        [database, "exec"],
      ] as const) {
        const original = target[method]!;
        originals.set([target, method], original);
        target[method] = function (this: unknown, ...args: unknown[]) {
          executed++;
          return original.apply(this, args);
        };
      }
      try {
        const report = f.control.reconcile();
        assert.equal(report.batchesRepaired, runs, "every cut-off batch is repaired");
      } finally {
        for (const [[target, method], original] of originals) target[method] = original;
        f.close();
      }
      return executed;
    };
    assert.equal(statementsOfRepair(60), statementsOfRepair(3), "set-based: no statement runs once per repaired run");
  });
});

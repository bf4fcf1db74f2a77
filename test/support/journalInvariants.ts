// What a client can check from one session/history answer at any moment, even mid-turn: the journal
// commits each batch and its ledger completions in one transaction, so these hold between any two
// transactions, not only at rest (harness #6, #7; control plane #11, #9).
import assert from "node:assert/strict";
import type { HistoryMessage, TurnSummary } from "../../shared/protocol/index.js";
import { assertCompleteBatches } from "./historyAssertions.js";

/** control plane #11: the attempt statuses that hold execution authority. */
const ACTIVE_ATTEMPT = new Set(["queued", "starting", "running", "waiting_input", "waiting_approval", "cancelling"]);

export interface SessionView {
  messages: HistoryMessage[];
  runs: TurnSummary[];
}

/** Every invariant below, on one session's history; `label` names the session and moment in failures. */
export function assertJournalInvariants(view: SessionView, label: string): void {
  assertOneActiveAttempt(view.runs, label);
  assertGapFreeSequence(view.messages, label);
  assertCompleteBatches(view.messages);
  assertLedgerMatchesHistory(view, label);
}

/** control plane #11: at most one attempt of a run holds execution authority, and a session has one active run at most. */
export function assertOneActiveAttempt(runs: TurnSummary[], label: string): void {
  for (const run of runs) {
    const active = run.attempts.filter((a) => ACTIVE_ATTEMPT.has(a.status));
    assert.ok(
      active.length <= 1,
      `${label}: run ${run.turnId} has ${active.length} active attempts (${active.map((a) => a.status).join(", ")})`,
    );
    if (run.status !== "active") assert.equal(active.length, 0, `${label}: ${run.status} run ${run.turnId} still has an active attempt`);
  }
  const activeRuns = runs.filter((r) => r.status === "active");
  assert.ok(activeRuns.length <= 1, `${label}: ${activeRuns.length} runs of one session are active at once`);
}

/** control plane #9: the journal is the one sequence owner: committed messages are numbered 1, 2, 3, … without gaps. */
export function assertGapFreeSequence(messages: HistoryMessage[], label: string): void {
  messages.forEach((m, i) => assert.equal(m.seq, i + 1, `${label}: message ${i} has seq ${m.seq}; expected ${i + 1} (a gap or a reorder)`));
}

/**
 * Ledger matches history: every tool result in history has a ledger row in its own run whose terminal
 * status says the same (ok exactly when `succeeded`), except the refusals that never reached the
 * ledger; and every `succeeded` row has its result in history. Runs are matched to messages through
 * their user messages: admission commits each run's user message, in run order.
 */
export function assertLedgerMatchesHistory(view: SessionView, label: string): void {
  const segments = segmentByRun(view.messages);
  assert.equal(segments.length, view.runs.length, `${label}: ${segments.length} user messages for ${view.runs.length} runs`);
  view.runs.forEach((run, i) => {
    const results = segments[i]!.filter((m): m is Extract<HistoryMessage, { role: "tool" }> => m.role === "tool");
    for (const r of results) {
      const row = run.ledger.find((l) => l.callId === r.callId);
      if (!row) {
        assert.ok(
          r.resultKind !== undefined && r.resultKind !== "claimed",
          `${label}: result of ${r.name} call ${r.callId} has no ledger row in run ${run.turnId} (kind ${String(r.resultKind)})`,
        );
        assert.equal(r.ok, false, `${label}: an unclaimed result of call ${r.callId} says ok`);
        continue;
      }
      assert.equal(row.tool, r.name, `${label}: call ${r.callId} is ${r.name} in history and ${row.tool} in the ledger`);
      assert.equal(
        r.resultKind,
        "claimed",
        `${label}: result of call ${r.callId} answers a ledger row but is kept as ${String(r.resultKind)}`,
      );
      const expected = r.ok ? ["succeeded"] : ["failed", "outcome_unknown"];
      assert.ok(
        expected.includes(row.status),
        `${label}: call ${r.callId} is ${r.ok ? "ok" : "not ok"} in history and ${row.status} in the ledger`,
      );
    }
    for (const row of run.ledger.filter((l) => l.status === "succeeded")) {
      assert.ok(
        results.some((r) => r.callId === row.callId),
        `${label}: ledger row ${row.callId} (${row.tool}) succeeded but its result is not in run ${run.turnId}'s history`,
      );
    }
  });
}

/** Messages grouped by run: each group starts at a user message. */
function segmentByRun(messages: HistoryMessage[]): HistoryMessage[][] {
  const segments: HistoryMessage[][] = [];
  for (const m of messages) {
    if (m.role === "user") segments.push([m]);
    else if (m.role !== "system") segments.at(-1)?.push(m);
  }
  return segments;
}

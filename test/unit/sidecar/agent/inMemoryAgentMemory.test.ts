// The in-memory journal is the harness's reference for the memory port (harness #6, #7): it refuses what the
// kernel's journal refuses (a second active turn, a reused claim, a skipped ledger step, a write outside the
// active turn) and reconciles unfinished rows after a crash; added after a mutation run (docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InMemoryAgentMemory, type InvocationClaim } from "../../../../sidecar/agent/index.js";
import { isBoundedReason } from "../../../support/historyAssertions.js";

const start = (turnId: string) => ({
  sessionKey: "s",
  turnId,
  user: { role: "user" as const, text: "go" },
  authorityDigest: "sha256:authority",
});
const claim = (turnId: string, callId: string): InvocationClaim => ({
  turnId,
  callId,
  tool: "counter",
  input: { by: 1 },
  inputHash: "sha256:input",
  authorityDigest: "sha256:authority",
  effectClass: "non_idempotent_write",
  retryPolicy: "never_auto_retry",
});
/** A refusal that is a deliberate Error naming `what`, not a crash inside the memory. */
const refusal = (what: string) => (e: unknown) => e instanceof Error && !(e instanceof TypeError) && e.message.includes(what);

async function withRows(): Promise<InMemoryAgentMemory> {
  const m = new InMemoryAgentMemory();
  await m.beginTurn(start("t1"));
  for (const id of ["c-prepared", "c-dispatched", "c-succeeded", "c-failed"]) await m.recordPrepared(claim("t1", id));
  for (const id of ["c-dispatched", "c-succeeded", "c-failed"]) await m.recordDispatched(id);
  await m.recordSettled("c-succeeded", { status: "succeeded" });
  await m.recordSettled("c-failed", { status: "failed", reason: "disk on fire" });
  return m;
}
const rows = (m: InMemoryAgentMemory) => [...m.ledger.entries()].map(([id, e]) => [id, e.status, e.reason]);

describe("in-memory agent memory", () => {
  it("harness #2 #7: a second turn cannot begin while one is active, and can once it closed", async () => {
    const m = new InMemoryAgentMemory();
    await m.beginTurn(start("t1"));
    await assert.rejects(m.beginTurn(start("t2")), refusal("t1"));
    assert.deepEqual([...m.turns.keys()], ["t1"]);
    await m.closeTurn("t1", { status: "completed", messages: [] });
    await m.beginTurn(start("t2"));
    assert.deepEqual([...m.turns.keys()], ["t1", "t2"]);
  });

  it("harness #7: claims, checkpoints and the close are refused outside the active turn", async () => {
    const m = new InMemoryAgentMemory();
    await assert.rejects(m.recordPrepared(claim("t1", "c1")), refusal("t1"), "no turn is active");
    await m.beginTurn(start("t1"));
    await assert.rejects(m.recordPrepared(claim("t0", "c1")), refusal("t0"));
    await assert.rejects(m.checkpoint("t0", [{ role: "user", text: "go" }]), refusal("t0"));
    await assert.rejects(m.closeTurn("t0", { status: "completed", messages: [] }), refusal("t0"));
    assert.deepEqual([m.ledger.size, m.history.length, m.turns.get("t1")!.close], [0, 0, null], "nothing was written");
    await m.closeTurn("t1", { status: "completed", messages: [{ role: "user", text: "go" }] });
    await assert.rejects(m.checkpoint("t1", [{ role: "user", text: "late" }]), refusal("t1"), "a closed turn takes no more writes");
    assert.deepEqual(m.history, [{ role: "user", text: "go" }]);
  });

  it("harness #4 #6: a call id is claimed once; the second claim leaves the first row as it was", async () => {
    const m = new InMemoryAgentMemory();
    await m.beginTurn(start("t1"));
    await m.recordPrepared(claim("t1", "c1"));
    await m.recordDispatched("c1");
    await assert.rejects(m.recordPrepared(claim("t1", "c1")), refusal("c1"));
    assert.deepEqual(rows(m), [["c1", "dispatched", null]]);
  });

  it("harness #6: the ledger moves only prepared → dispatched → settled; a skipped step, a second settlement or an unclaimed call is refused", async () => {
    const m = await withRows();
    await assert.rejects(
      m.recordSettled("c-prepared", { status: "succeeded" }),
      refusal("c-prepared"),
      "prepared → succeeded skips dispatch",
    );
    await assert.rejects(m.recordDispatched("c-dispatched"), refusal("c-dispatched"), "dispatched twice");
    await assert.rejects(m.recordSettled("c-succeeded", { status: "failed", reason: "again" }), refusal("c-succeeded"), "terminal");
    await assert.rejects(m.recordDispatched("c-failed"), refusal("c-failed"), "terminal");
    await assert.rejects(m.recordDispatched("c-nobody"), refusal("c-nobody"), "no ledger row");
    await assert.rejects(m.recordSettled("c-nobody", { status: "succeeded" }), refusal("c-nobody"), "no ledger row");
    assert.deepEqual(rows(m), [
      ["c-prepared", "prepared", null],
      ["c-dispatched", "dispatched", null],
      ["c-succeeded", "succeeded", null],
      ["c-failed", "failed", "disk on fire"],
    ]);
    await m.recordSettled("c-prepared", { status: "failed", reason: "cancelled before dispatch" });
    assert.deepEqual(rows(m)[0], ["c-prepared", "failed", "cancelled before dispatch"], "prepared → failed is allowed");
  });

  it("harness #6: after a crash a prepared row fails and a dispatched one becomes outcome_unknown, each with a reason; settled rows stay", async () => {
    const m = await withRows();
    m.reconcileAfterCrash();
    const after = rows(m);
    assert.deepEqual(
      after.map(([id, status]) => [id, status]),
      [
        ["c-prepared", "failed"],
        ["c-dispatched", "outcome_unknown"],
        ["c-succeeded", "succeeded"],
        ["c-failed", "failed"],
      ],
    );
    assert.ok(isBoundedReason(String(after[0]![2] ?? "")), "the failed row says why");
    assert.ok(isBoundedReason(String(after[1]![2] ?? "")), "the outcome_unknown row says why");
    assert.notEqual(after[0]![2], after[1]![2], "before dispatch and during the tool are told apart");
    assert.deepEqual(after.slice(2), rows(await withRows()).slice(2), "settled rows keep their status and reason");
    await m.beginTurn(start("t2")); // the crashed turn is no longer active
  });
});

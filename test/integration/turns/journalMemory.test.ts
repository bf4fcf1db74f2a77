// The harness over the real journal (JournalMemory + ControlPlane on a SQLite file): ledger and
// history never disagree, even when a journal write fails (harness #6, #7; control plane #8).
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { describe, it } from "node:test";
import { AgentSessionBuilder } from "../../../sidecar/agent/index.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import type { NewMessage } from "../../../sidecar/kernel/control/conversation.js";
import type { InvocationClaim, InvocationOutcome } from "../../../sidecar/kernel/control/ledger.js";
import { JournalMemory } from "../../../sidecar/kernel/turns/journalMemory.js";
import { AUTHORITY, CounterTool, scripted } from "../../support/harnessFixtures.js";
import { CLIENT, openFixture, type Fixture } from "../../support/journalFixture.js";

/**
 * A control plane whose first batch commit meets a real SQLITE_BUSY: another connection holds the
 * write lock and this connection does not wait for it. The lock is released right after.
 */
class BusyOnceControlPlane extends ControlPlane {
  busyHits = 0;
  constructor(private readonly f: Fixture) {
    super(f.journal, f.scope);
  }

  override appendMessages(
    sessionId: string,
    turnId: string | null,
    messages: readonly NewMessage[],
    completions: readonly { claim: InvocationClaim; outcome: InvocationOutcome }[] = [],
  ): number[] {
    if (this.busyHits > 0) return super.appendMessages(sessionId, turnId, messages, completions);
    this.busyHits++;
    const other = new Database(this.f.file);
    const timeout = this.f.journal.db.pragma("busy_timeout", { simple: true }) as number;
    other.exec("BEGIN IMMEDIATE");
    this.f.journal.db.pragma("busy_timeout = 0");
    try {
      return super.appendMessages(sessionId, turnId, messages, completions);
    } finally {
      other.exec("ROLLBACK");
      other.close();
      this.f.journal.db.pragma(`busy_timeout = ${timeout}`);
    }
  }
}

describe("journal memory", () => {
  it("a failing batch commit never splits ledger and history: the results land with their completions (harness #6, issue 11 item 3)", async () => {
    const f = openFixture();
    const control = new BusyOnceControlPlane(f);
    const { sessionId } = control.createSession({ title: "t", model: "scripted:demo" });
    const { turnId, attemptId } = control.admitTurn(sessionId, "count", CLIENT);
    const tool = new CounterTool({ effectClass: "idempotent_write" });
    const model = scripted([{ toolCalls: [{ name: "counter", arguments: { by: 2 } }] }, { text: ["done"] }]);
    const session = new AgentSessionBuilder()
      .model(model)
      .tools([tool])
      .memory(new JournalMemory(control, { sessionId, turnId, attemptId }))
      .authorityInputs(AUTHORITY)
      .build();
    const out = await session.runTurn("count", { turnId: turnId });
    assert.equal(control.busyHits, 1);
    assert.equal(out.status === "failed" && out.failure.kind, "memory_failed");
    assert.match(out.status === "failed" ? out.failure.message : "", /database is locked/);
    assert.equal(tool.effects.length, 1, "the tool ran once");
    const history = control.history(sessionId);
    const results = history.messages.filter((m) => m.role === "tool");
    assert.deepEqual(
      results.map((m) => m.role === "tool" && [m.ok, m.output]),
      [[true, "counter=2"]],
      "history holds the real result",
    );
    const run = history.runs.find((r) => r.turnId === turnId)!;
    assert.equal(run.status, "failed");
    assert.deepEqual(
      run.ledger.map((l) => l.status),
      ["succeeded"],
      "the ledger says what history says",
    );
    f.close();
  });
});

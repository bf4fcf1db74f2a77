// AgentSession.runTurn's own guards (harness #7, #20): the capability re-check, the turn's journal start
// and the refusal after a journal failure; added after a mutation run of agentSession.ts (docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { isUuidv7 } from "../../../../shared/ids.js";
import { InMemoryAgentMemory, type TurnStart } from "../../../../sidecar/agent/index.js";
import { builder, FnModel, provenCapabilities as caps } from "../../../support/harnessFixtures.js";

const answering = (c = caps()) => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }), c);

/** A journal whose `step` rejects (both closes of a turn, for closeTurn: the failure close is a retry), then works. */
function flakyMemory(step: "beginTurn" | "closeTurn"): InMemoryAgentMemory {
  const memory = new InMemoryAgentMemory();
  let failures = step === "closeTurn" ? 2 : 1;
  const real = memory[step].bind(memory) as unknown as (...a: unknown[]) => Promise<void>;
  Object.assign(memory, {
    [step]: (...a: unknown[]) => (failures-- > 0 ? Promise.reject(new Error("disk full")) : real(...a)),
  });
  return memory;
}

describe("agent session", () => {
  it("harness #20: a session without a system message runs its turns on a model whose system role is not proven", async () => {
    for (const systemRole of ["unknown", "disproven"] as const) {
      const model = answering(caps({ systemRole }));
      const session = builder(model, []).builder.build();
      assert.equal((await session.runTurn("one")).status, "completed", systemRole);
      assert.equal((await session.runTurn("two")).status, "completed", `${systemRole}: history now starts with a user message`);
      assert.equal(model.requests.length, 2);
    }
  });

  it("harness #20: a session without tools runs its turns on a model whose tool calls are not proven", async () => {
    for (const toolCalls of ["unknown", "disproven"] as const) {
      const model = answering(caps({ toolCalls }));
      const session = builder(model, []).builder.build();
      assert.equal((await session.runTurn("one")).status, "completed", toolCalls);
      assert.equal(model.requests.length, 1);
    }
  });

  it("harness #7: the journal is told the turn's id, session, user message and authority before anything runs", async () => {
    const memory = new InMemoryAgentMemory();
    const session = builder(answering(), [], memory).builder.sessionKey("session-a").build();
    const out = await session.runTurn("hello there", { turnId: "run-0001" });
    assert.equal(out.turnId, "run-0001", "the kernel's turn id (its run id) is the turn's id");
    const expected: TurnStart = {
      sessionKey: "session-a",
      turnId: "run-0001",
      user: { role: "user", text: "hello there" },
      authorityDigest: session.authority.digests.authority,
    };
    assert.deepEqual(
      [...memory.turns.entries()].map(([id, t]) => [id, t.start]),
      [["run-0001", expected]],
    );

    const minted = await session.runTurn("again");
    assert.ok(isUuidv7(minted.turnId), `a turn without a kernel id gets a UUIDv7, got ${String(minted.turnId)}`);
    assert.deepEqual([...memory.turns.keys()], ["run-0001", minted.turnId]);
  });

  it("harness #7: after the journal failed to record a turn's start or close, the session refuses turns until rebuilt", async () => {
    for (const step of ["beginTurn", "closeTurn"] as const) {
      const memory = flakyMemory(step);
      const model = answering();
      const session = builder(model, [], memory).builder.build();
      await assert.rejects(
        session.runTurn("one"),
        (e: unknown) => e instanceof HearthError && e.code === ErrorCode.JournalUnavailable && /disk full/.test(e.message),
        step,
      );
      const rounds = model.requests.length;
      await assert.rejects(
        session.runTurn("two"),
        (e: unknown) =>
          e instanceof HearthError &&
          e.code === ErrorCode.Conflict &&
          /^refused: the session journal failed \(.*disk full.*\); rebuild the session from its journal$/.test(e.message),
        step,
      );
      assert.equal(model.requests.length, rounds, `${step}: the refused turn ran no model round`);
      assert.equal(memory.turns.size, step === "beginTurn" ? 0 : 1, `${step}: the refused turn journaled nothing`);
    }
  });
});

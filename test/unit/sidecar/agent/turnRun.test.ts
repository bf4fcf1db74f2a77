// One turn's exits (harness #5, #7, #10, #18): added after a mutation run of turnRun.ts
// (docs/mutation.md), where these behaviours were asserted by no test.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CallIdRegistry } from "../../../../sidecar/agent/callIds.js";
import { InMemoryAgentMemory } from "../../../../sidecar/agent/index.js";
import { assertStructurallyComplete, builder, collect, CounterTool, FnModel, scripted } from "../../../support/harnessFixtures.js";
import { isBoundedReason } from "../../../support/historyAssertions.js";

const oneCallThenAnswer = () => scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["done"] }]);

describe("turn run", () => {
  it("a call whose arguments are not a JSON object is refused and never run, even where empty arguments fit the schema (harness #5)", async () => {
    const tool = new CounterTool();
    (tool.definition.parameters as { required: string[] }).required = []; // `{}` alone would now pass the schema
    const model = new FnModel(async (_r, _c, round) =>
      round === 0
        ? { text: "", reasoning: "", toolCalls: [{ name: "counter", arguments: ["by", 1] }], stopReason: "tool_calls" }
        : { text: "could not count", reasoning: "", toolCalls: [], stopReason: "end" },
    );
    const { memory, builder: b } = builder(model, [tool]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed");
    assert.deepEqual(tool.effects, [], "the call never ran with the `{}` it was recorded with");
    const result = memory.history.find((m) => m.role === "tool");
    assert.match(result?.role === "tool" ? result.output : "", /^refused: the arguments for counter were not a JSON object/);
  });

  it("a completed turn closes its journal turn as completed, with the messages it committed (harness #7)", async () => {
    const { memory, builder: b } = builder(oneCallThenAnswer(), [new CounterTool()]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed");
    const [turn] = [...memory.turns.values()];
    assert.equal(turn!.close!.status, "completed");
    assert.deepEqual(
      turn!.close!.messages.map((m) => m.role),
      ["assistant"],
      "the checkpointed batch was journaled before; the close adds the answer",
    );
    assert.deepEqual(memory.history, out.messages);
  });

  it("events are presentation: the turn reports running first, and no event enters history (harness #18)", async () => {
    const sink = collect();
    const { memory, builder: b } = builder(oneCallThenAnswer(), [new CounterTool()]);
    await b.build().runTurn("go", { onEvent: sink.onEvent });
    assert.deepEqual(sink.events[0], { type: "status", status: "running" });
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
  });

  it("an unexpected fault inside the harness fails the turn as internal_error and rolls it back (harness #10)", async () => {
    // A provider adapter that breaks its own contract: a tool call that is not an object.
    const model = new FnModel(async () => ({ text: "", reasoning: "", toolCalls: [null as never], stopReason: "tool_calls" }));
    const { memory, builder: b } = builder(model, [new CounterTool()]);
    const session = b.build();
    const out = await session.runTurn("go");
    assert.equal(out.status, "failed");
    if (out.status !== "failed") return;
    assert.equal(out.failure.kind, "internal_error");
    assert.ok(out.failure.cause instanceof TypeError, "the fault is kept as the cause");
    assert.match(out.failure.message, /^the agent harness failed unexpectedly: .+; please report this$/);
    assert.ok(isBoundedReason(out.failure.message));
    assert.deepEqual([out.messages, memory.history, session.history()], [[], [], []]);
    assert.equal([...memory.turns.values()][0]!.close!.status, "failed");
  });

  it("a journal failure fails the turn as memory_failed and names the step, even when the journal rejects without an Error (harness #7)", async () => {
    for (const step of ["recordPrepared", "recordDispatched", "checkpoint"] as const) {
      const memory = new InMemoryAgentMemory();
      const faulty = Object.assign(Object.create(memory) as InMemoryAgentMemory, {
        [step]: () => Promise.reject(undefined),
      });
      const out = await builder(oneCallThenAnswer(), [new CounterTool()], faulty).builder.build().runTurn("go");
      assert.equal(out.status === "failed" && out.failure.kind, "memory_failed", step);
      assert.match(out.status === "failed" ? out.failure.message : "", new RegExp(`the session journal failed at ${step}: undefined`));
      assertStructurallyComplete(memory.history);
    }
    const memory = new InMemoryAgentMemory();
    const faulty = Object.assign(Object.create(memory) as InMemoryAgentMemory, {
      closeTurn: () => Promise.reject(new Error("database is locked")),
    });
    await assert.rejects(
      builder(oneCallThenAnswer(), [new CounterTool()], faulty).builder.build().runTurn("go"),
      /the session journal failed at closeTurn: database is locked/,
    );
  });

  it("ids committed by a checkpoint survive a later rollback of the same turn: the session still refuses them (harness #4, #10)", async () => {
    // Round 0 runs an effectful call (checkpointed); round 1 fails, so the turn rolls back to its
    // last checkpoint, which must not reach back past the committed call.
    const model = new FnModel(async (_r, _c, round) => {
      if (round === 0) return { text: "", reasoning: "", toolCalls: [{ name: "counter", arguments: { by: 1 } }], stopReason: "tool_calls" };
      if (round === 1) return { text: "", reasoning: "", toolCalls: [{ name: "nosuch", arguments: {} }], stopReason: "tool_calls" };
      throw new Error("model lost");
    });
    const tool = new CounterTool();
    const session = builder(model, [tool]).builder.build();
    const out = await session.runTurn("go");
    assert.equal(out.status, "failed");
    const committed = session.history().flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => c.callId) : []));
    assert.deepEqual(committed, [tool.effects[0]!.callId], "only the checkpointed call is committed");
    assert.equal(model.requests.length, 3, "the held (refused) batch was followed by the failing round");
    // The registry is the session's own (no public accessor): it decides which ids are taken.
    const ids = (session as unknown as { parts: { ids: CallIdRegistry } }).parts.ids;
    assert.ok(ids.has(committed[0]!), "a committed call id is still known, so no later call can be given it");
    assert.equal(ids.cursor(), 1, "the held batch's id was forgotten with the rollback, the committed one kept");
  });
});

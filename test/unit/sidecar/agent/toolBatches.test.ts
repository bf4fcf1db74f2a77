// Call/result batches: rollback before invocation, complete checkpoints once an effect may have
// happened (harness #6, #7, #10, #13), including a property test over random failure points.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { AgentSessionBuilder, InMemoryAgentMemory, type AgentMemory } from "../../../../sidecar/agent/index.js";
import {
  approveAll,
  assertStructurallyComplete,
  AUTHORITY,
  builder,
  CounterTool,
  FnModel,
  scripted,
} from "../../../support/harnessFixtures.js";

const twoRounds = (calls: number) =>
  scripted([
    { text: ["working"], toolCalls: Array.from({ length: calls }, (_, i) => ({ name: "counter", arguments: { by: i + 1 } })) },
    { text: ["done"] },
  ]);

describe("tool call/result batches", () => {
  it("persists each complete batch before the next model round (harness #6)", async () => {
    const memory = new InMemoryAgentMemory();
    const seen: number[] = [];
    const model = new FnModel(async (_r, _c, round) => {
      seen.push(memory.history.length);
      return round < 2
        ? { text: "", reasoning: "", toolCalls: [{ name: "counter", arguments: { by: 1 } }], stopReason: "tool_calls" }
        : { text: "done", reasoning: "", toolCalls: [], stopReason: "end" };
    });
    await builder(model, [new CounterTool()], memory).builder.build().runTurn("go");
    assert.deepEqual(seen, [0, 3, 5]); // user+call+result, then call+result, committed before each round
  });

  it("rolls the whole turn back when a failure comes before any invocation (harness #6 #10 #13)", async () => {
    const tool = new CounterTool({ requiresApproval: true, proposeFault: true });
    const { memory, builder: b } = builder(twoRounds(2), [tool]);
    const out = await b.approval(approveAll).build().runTurn("go");
    assert.equal(out.status, "failed");
    assert.deepEqual(out.messages, []);
    assert.deepEqual(memory.history, [], "the user message rolls back with the batch");
    assert.equal([...memory.turns.values()][0]!.close!.status, "failed");
  });

  it("checkpoints a matching result for every call once a tool faulted mid-batch (harness #6 #10)", async () => {
    const tool = new CounterTool({ fault: true });
    const { memory, builder: b } = builder(twoRounds(3), [tool]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "tool_fatal");
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "tool"],
    );
    assertStructurallyComplete(memory.history);
    const outputs = memory.history.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    assert.match(outputs[0]!, /faulted: disk on fire/);
    assert.match(outputs[1]!, /^not run: /);
    assert.equal(tool.effects.length, 1, "the remaining calls never ran");
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => e.status),
      ["failed"],
    );
  });

  it("keeps checkpoints when the model fails after a tool batch (harness #10)", async () => {
    const { memory, builder: b } = builder(
      scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["par"], error: "provider hung up" }]),
      [new CounterTool()],
    );
    const out = await b.build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "model_failed");
    assert.deepEqual(
      out.messages.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
    assert.deepEqual(memory.history, out.messages);
  });

  it("keeps checkpoints when the round limit is exhausted (harness #10)", async () => {
    const model = new FnModel(async () => ({
      text: "",
      reasoning: "",
      toolCalls: [{ name: "counter", arguments: { by: 1 } }],
      stopReason: "tool_calls",
    }));
    const { memory, builder: b } = builder(model, [new CounterTool()]);
    const out = await b.maxRounds(2).build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "round_limit");
    assert.equal(memory.history.length, 5);
    assertStructurallyComplete(memory.history);
  });

  it("keeps the checkpoint when the event sink fails after a tool started (harness #10 #18)", async () => {
    const tool = new CounterTool();
    const { memory, builder: b } = builder(twoRounds(2), [tool]);
    const out = await b.build().runTurn("go", {
      onEvent: (e) => {
        if (e.type === "tool_result") throw new Error("socket closed");
      },
    });
    assert.equal(out.status === "failed" && out.failure.kind, "sink_failed");
    assert.equal(tool.effects.length, 1);
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool", "tool"],
    );
    assertStructurallyComplete(memory.history);
  });

  it("keeps the real result when journaling it fails after the effect (harness #6 #10)", async () => {
    const memory = new InMemoryAgentMemory();
    const faulty: AgentMemory = Object.assign(Object.create(memory) as InMemoryAgentMemory, {
      recordSettled: async () => {
        throw new Error("disk full");
      },
    });
    const tool = new CounterTool();
    const out = await new AgentSessionBuilder()
      .model(twoRounds(2))
      .tools([tool])
      .memory(faulty)
      .authorityInputs(AUTHORITY)
      .build()
      .runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "memory_failed");
    assert.match(out.status === "failed" ? out.failure.message : "", /journal failed at recordSettled: disk full/);
    const outputs = memory.history.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    assert.equal(outputs[0], "counter=1");
    assert.match(outputs[1]!, /^not run: /);
  });

  it("refuses further turns after the journal could not close a turn (harness #7)", async () => {
    const memory = new InMemoryAgentMemory();
    const faulty: AgentMemory = Object.assign(Object.create(memory) as InMemoryAgentMemory, {
      closeTurn: async () => {
        throw new Error("database is locked");
      },
    });
    const session = new AgentSessionBuilder()
      .model(scripted([{ text: ["a"] }, { text: ["b"] }]))
      .memory(faulty)
      .authorityInputs(AUTHORITY)
      .build();
    await assert.rejects(
      session.runTurn("one"),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.JournalUnavailable && /database is locked/.test(e.message),
    );
    await assert.rejects(session.runTurn("two"), /rebuild the session from its journal/);
  });

  it("marks a call that was dispatched when the kernel died as outcome_unknown, never re-run (harness #6)", async () => {
    const memory = new InMemoryAgentMemory();
    const tool = new CounterTool({ hold: () => new Promise(() => undefined) }); // the process "dies" mid-effect
    void builder(twoRounds(1), [tool], memory).builder.build().runTurn("go");
    await new Promise((r) => setTimeout(r, 10));
    memory.reconcileAfterCrash();
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => e.status),
      ["outcome_unknown"],
    );
    assert.deepEqual(memory.history, [], "no partial batch reached history");
  });

  it("a failed turn with no possible tool effect keeps no batch: denied, refused and unknown calls roll back with it (harness #10 #13, issue 11 item 1)", async () => {
    // Round 1 asks for a write the default policy denies, a tool that does not exist and arguments
    // that fail the schema; round 2 errors. Nothing could have had an effect, so the turn rolls back
    // to its entry cursor and the next turn shows the model only the new user message.
    const gated = new CounterTool({ name: "write_file", requiresApproval: true });
    const model = new FnModel(async (_r, _c, round) => {
      if (round === 0) {
        const toolCalls = [
          { name: "write_file", arguments: { by: 1 } },
          { name: "invented", arguments: {} },
          { name: "write_file", arguments: { by: "x" } },
        ];
        return { text: "", reasoning: "", toolCalls, stopReason: "tool_calls" };
      }
      if (round === 1) throw new Error("provider hung up");
      return { text: "fresh", reasoning: "", toolCalls: [], stopReason: "end" };
    });
    const { memory, builder: b } = builder(model, [gated]);
    const session = b.build();
    const failed = await session.runTurn("first");
    assert.equal(failed.status === "failed" && failed.failure.kind, "model_failed");
    assert.deepEqual(failed.messages, [], "nothing of the failed turn stayed committed");
    assert.equal(memory.history.length, 0, "the denied batch never reached the journal");
    assert.equal(session.history().length, 0);
    assert.equal(gated.effects.length, 0);
    const next = await session.runTurn("second");
    assert.equal(next.status, "completed");
    assert.deepEqual(model.requests.at(-1)!.messages, [{ role: "user", text: "second" }], "the next turn sees only its own user message");
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant"],
    );
  });

  it("a denied batch after an effectful one rolls back to the effectful checkpoint (harness #10, issue 11 item 1)", async () => {
    const counter = new CounterTool();
    const gated = new CounterTool({ name: "write_file", requiresApproval: true });
    const model = new FnModel(async (_r, _c, round) => {
      if (round === 0) return { text: "", reasoning: "", toolCalls: [{ name: "counter", arguments: { by: 1 } }], stopReason: "tool_calls" };
      if (round === 1)
        return { text: "", reasoning: "", toolCalls: [{ name: "write_file", arguments: { by: 2 } }], stopReason: "tool_calls" };
      throw new Error("provider hung up");
    });
    const { memory, builder: b } = builder(model, [counter, gated]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "model_failed");
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool"],
      "the effectful batch stays; the denied one rolls back",
    );
    assert.deepEqual(out.messages, memory.history);
    assert.equal(memory.history[1]!.role === "assistant" && memory.history[1]!.toolCalls[0]!.name, "counter");
  });

  it("a completed turn commits its effect-free batches with the answer (harness #6 #7, issue 11 item 1)", async () => {
    const gated = new CounterTool({ name: "write_file", requiresApproval: true });
    const { memory, builder: b } = builder(
      scripted([{ toolCalls: [{ name: "write_file", arguments: { by: 1 } }] }, { text: ["could not write"] }]),
      [gated],
    );
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed");
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.match(memory.history[2]!.role === "tool" ? memory.history[2]!.output : "", /^denied: /);
    assertStructurallyComplete(memory.history);
  });

  it("whatever tools a failed turn called, history keeps only batches with a dispatched call (harness #10, issue 11 item 1, property)", async () => {
    // Each call is, at random, approval-free (runs), approval-gated (denied by default), unknown, or
    // malformed; the model errors at a random round. Committed history must be the prefix up to the
    // last batch that dispatched something, and nothing at all when nothing was dispatched.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom("run", "denied", "unknown", "malformed"), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (rounds) => {
          const free = new CounterTool();
          const gated = new CounterTool({ name: "write_file", requiresApproval: true });
          const model = new FnModel(async (_r, _c, round) => {
            const kinds = rounds[round];
            if (!kinds) throw new Error("provider hung up");
            return {
              text: "",
              reasoning: "",
              stopReason: "tool_calls",
              // Every refused call differs from the others, so no loop guard for repeated failures applies.
              toolCalls: kinds.map((k, i) =>
                k === "run"
                  ? { name: "counter", arguments: { by: 1 } }
                  : k === "denied"
                    ? { name: "write_file", arguments: { by: round * 3 + i + 1 } }
                    : k === "unknown"
                      ? { name: `invented_${round}_${i}`, arguments: {} }
                      : { name: "counter", arguments: [round, i] },
              ),
            };
          });
          const { memory, builder: b } = builder(model, [free, gated]);
          // The failure under test is the provider's: the loop guard must not stop repeated refusals first.
          const session = b.repeatedFailureLimit(1000).build();
          const out = await session.runTurn("go");
          assert.equal(out.status, "failed");
          const lastEffectful = rounds.findLastIndex((kinds) => kinds.includes("run"));
          const expectedBatches = rounds.slice(0, lastEffectful + 1);
          const expectedLength = lastEffectful < 0 ? 0 : 1 + expectedBatches.reduce((n, kinds) => n + 1 + kinds.length, 0);
          assert.equal(memory.history.length, expectedLength);
          assert.deepEqual(session.history(), memory.history);
          assertStructurallyComplete(memory.history);
          assert.equal(free.effects.length, rounds.flat().filter((k) => k === "run").length, "every approval-free call ran");
        },
      ),
      { numRuns: 100 },
    );
  });

  it("rolls back or checkpoints correctly at any failure point (harness #6 #10 #18, property)", async () => {
    // One failure is injected at a random point: a journal step, a tool fault, a sink failure or a
    // cancellation at the n-th presentation event. Whatever the point, history is structurally
    // complete; nothing is committed unless a call was dispatched; every effect has a ledger row.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 14 }),
        fc.constantFrom("memory", "tool", "sink", "cancel"),
        async (calls, failAt, where) => {
          const memory = new InMemoryAgentMemory();
          let step = 0;
          const trip = (kind: string) => where === kind && step++ === failAt;
          const faulty: AgentMemory = {
            beginTurn: (s) => memory.beginTurn(s),
            checkpoint: async (t, m) => {
              if (trip("memory")) throw new Error("journal busy");
              return memory.checkpoint(t, m);
            },
            closeTurn: (t, c) => memory.closeTurn(t, c),
            recordPrepared: async (c) => {
              if (trip("memory")) throw new Error("journal busy");
              return memory.recordPrepared(c);
            },
            recordDispatched: async (id) => {
              if (trip("memory")) throw new Error("journal busy");
              return memory.recordDispatched(id);
            },
            recordSettled: async (id, s) => {
              if (trip("memory")) throw new Error("journal busy");
              return memory.recordSettled(id, s);
            },
          };
          const ac = new AbortController();
          const tool = new CounterTool({
            hold: async () => {
              if (trip("tool")) throw new Error("boom");
            },
          });
          const onEvent = () => {
            if (trip("sink")) throw new Error("sink gone");
            if (where === "cancel" && step++ === failAt) ac.abort();
          };
          const session = new AgentSessionBuilder().model(twoRounds(calls)).tools([tool]).memory(faulty).authorityInputs(AUTHORITY).build();
          const out = await session.runTurn("go", { signal: ac.signal, onEvent });
          const dispatched = [...memory.ledger.values()].filter(
            (e) => e.status !== "prepared" && e.reason !== "cancelled before dispatch",
          ).length;
          assertStructurallyComplete(memory.history);
          assert.deepEqual(session.history(), memory.history);
          assert.equal(memory.turns.size, 1);
          assert.ok([...memory.turns.values()][0]!.close, "the turn was closed");
          if (out.status === "completed") assert.equal(memory.history.length, 3 + calls);
          else if (dispatched === 0) assert.deepEqual(memory.history, []);
          else assert.equal(memory.history.length, 2 + calls, "user, assistant and one result per call");
          assert.equal(tool.effects.length, dispatched, "every effect has a dispatched ledger row");
        },
      ),
      { numRuns: 200 },
    );
  });
});

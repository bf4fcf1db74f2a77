// The turn loop's basic contract: sequential turns, delta reconciliation, kernel-minted ids.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUuidv7, uuidv7 } from "../../../../shared/ids.js";
import { HearthError } from "../../../../shared/errors.js";
import { AgentSessionBuilder, InMemoryAgentMemory } from "../../../../sidecar/agent/index.js";
import {
  assertStructurallyComplete,
  AUTHORITY,
  builder,
  collect,
  CounterTool,
  deferred,
  FnModel,
  scripted,
} from "../../../support/harnessFixtures.js";

describe("agent turn loop", () => {
  it("runs a multi-round turn and commits user, calls, results and answer in order (harness #6 #7)", async () => {
    const counter = new CounterTool();
    const { memory, builder: b } = builder(
      scripted([
        {
          text: ["I will ", "count."],
          toolCalls: [
            { name: "counter", arguments: { by: 2 } },
            { name: "counter", arguments: { by: 3 } },
          ],
        },
        { text: ["Done: 5."] },
      ]),
      [counter],
    );
    const session = b.build();
    const out = await session.runTurn("count to five");
    assert.equal(out.status, "completed");
    assert.deepEqual(
      out.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "assistant"],
    );
    assert.equal(counter.value, 5);
    assert.deepEqual(memory.history, out.messages);
    assert.deepEqual(session.history(), out.messages);
    assertStructurallyComplete(memory.history);
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => e.status),
      ["succeeded", "succeeded"],
    );
  });

  it("refuses a second turn while one runs: one step at a time (harness #2)", async () => {
    const release = deferred();
    const model = new FnModel(async () => {
      await release.promise;
      return { text: "ok", reasoning: "", toolCalls: [], stopReason: "end" };
    });
    const session = builder(model, []).builder.build();
    const first = session.runTurn("one");
    await assert.rejects(session.runTurn("two"), (e: unknown) => e instanceof HearthError && /already running a turn/.test(e.message));
    release.resolve();
    assert.equal((await first).status, "completed");
    assert.equal((await session.runTurn("three")).status, "completed");
  });

  it("emits the missing terminal suffix so presented text equals committed text (harness #3)", async () => {
    const model = new FnModel(async (_r, onChunk) => {
      onChunk({ type: "reasoning", text: "thin" });
      onChunk({ type: "answer", text: "Hel" });
      return { text: "Hello there", reasoning: "thinking hard", toolCalls: [], stopReason: "end" };
    });
    const sink = collect();
    const out = await builder(model, []).builder.build().runTurn("hi", { onEvent: sink.onEvent });
    assert.equal(out.status, "completed");
    const answer = out.messages[1]!;
    assert.equal(answer.role === "assistant" && answer.text, "Hello there");
    assert.equal(sink.answer(), "Hello there");
    assert.equal(sink.reasoning(), "thinking hard");
  });

  it("emits reasoning that arrived with no delta at all (harness #3)", async () => {
    const sink = collect();
    const model = new FnModel(async () => ({ text: "A", reasoning: "silent reasoning", toolCalls: [], stopReason: "end" }));
    await builder(model, []).builder.build().runTurn("hi", { onEvent: sink.onEvent });
    assert.equal(sink.reasoning(), "silent reasoning");
    assert.equal(sink.answer(), "A");
  });

  it("fails the turn and commits nothing when answer deltas are not a prefix (harness #3)", async () => {
    const { memory, builder: b } = builder(scripted([{ text: ["Hello ", "world"], terminalText: "Goodbye" }]), []);
    const out = await b.build().runTurn("hi");
    assert.equal(out.status, "failed");
    assert.equal(out.status === "failed" && out.failure.kind, "non_prefix");
    assert.deepEqual(memory.history, []);
  });

  it("fails the turn on non-prefix reasoning deltas (harness #3)", async () => {
    const { memory, builder: b } = builder(scripted([{ reasoning: ["abc"], terminalReasoning: "xyz", text: ["ok"] }]), []);
    const out = await b.build().runTurn("hi");
    assert.equal(out.status === "failed" && out.failure.kind, "non_prefix");
    assert.deepEqual(memory.history, []);
  });

  it("commits only a terminal response with answer text or tool calls (harness #3)", async () => {
    const { memory, builder: b } = builder(scripted([{ reasoning: ["only thinking"] }]), []);
    const out = await b.build().runTurn("hi");
    assert.equal(out.status === "failed" && out.failure.kind, "empty_response");
    assert.deepEqual(memory.history, []);
  });

  it("mints UUIDv7 call ids and ignores provider ids (harness #4)", async () => {
    const providerId = uuidv7();
    const counter = new CounterTool();
    const { memory, builder: b } = builder(
      scripted([
        {
          toolCalls: [
            { name: "counter", arguments: { by: 1 }, id: providerId },
            { name: "counter", arguments: { by: 1 }, id: providerId },
          ],
        },
        { text: ["ok"] },
      ]),
      [counter],
    );
    await b.build().runTurn("go");
    const calls = memory.history.flatMap((m) => (m.role === "assistant" ? m.toolCalls : []));
    assert.equal(calls.length, 2);
    for (const c of calls) {
      assert.ok(isUuidv7(c.callId));
      assert.notEqual(c.callId, providerId);
    }
    assert.notEqual(calls[0]!.callId, calls[1]!.callId);
  });

  it("never reuses an id already in the resumed history (harness #4)", async () => {
    const counter = new CounterTool();
    const first = builder(
      scripted([
        { toolCalls: [{ name: "counter", arguments: { by: 1 } }] },
        { text: ["one"] },
        { toolCalls: [{ name: "counter", arguments: { by: 1 } }] },
        { text: ["two"] },
      ]),
      [counter],
    );
    await first.builder.build().runTurn("a");
    const resumed = new AgentSessionBuilder()
      .model(
        scripted([
          { toolCalls: [{ name: "counter", arguments: { by: 1 } }] },
          { text: ["one"] },
          { toolCalls: [{ name: "counter", arguments: { by: 1 } }] },
          { text: ["two"] },
        ]),
      )
      .tools([counter])
      .memory(first.memory)
      .authorityInputs(AUTHORITY)
      .history(first.memory.history)
      .build();
    await resumed.runTurn("b");
    assertStructurallyComplete(first.memory.history);
    assert.equal(first.memory.history.length, 8);
  });

  it("refuses a resumed history that reuses a call id or is not UUIDv7 (harness #4)", () => {
    const counter = new CounterTool();
    const id = uuidv7();
    const call = { role: "assistant" as const, text: "", toolCalls: [{ callId: id, name: "counter", arguments: { by: 1 } }] };
    const result = { role: "tool" as const, callId: id, name: "counter", ok: true, output: "1" };
    const b = () => builder(scripted([{ text: ["x"] }]), [counter]).builder;
    assert.throws(() => b().history([call, result, call, result]).build(), /appears twice/);
    const foreign = { ...call, toolCalls: [{ callId: "call_1", name: "counter", arguments: {} }] };
    assert.throws(
      () =>
        b()
          .history([foreign, { ...result, callId: "call_1" }])
          .build(),
      /not a kernel-minted UUIDv7/,
    );
  });

  it("refuses a resumed history with a dangling call or a result out of order (harness #7)", () => {
    const counter = new CounterTool();
    const [a, c] = [uuidv7(), uuidv7()];
    const call = {
      role: "assistant" as const,
      text: "",
      toolCalls: [
        { callId: a, name: "counter", arguments: {} },
        { callId: c, name: "counter", arguments: {} },
      ],
    };
    const b = () => builder(scripted([{ text: ["x"] }]), [counter]).builder;
    assert.throws(
      () =>
        b()
          .history([call, { role: "tool", callId: a, name: "counter", ok: true, output: "" }])
          .build(),
      /has no result/,
    );
    assert.throws(
      () =>
        b()
          .history([call, { role: "tool", callId: c, name: "counter", ok: true, output: "" }])
          .build(),
      /was due/,
    );
    assert.throws(
      () =>
        b()
          .history([
            { role: "user", text: "x" },
            { role: "system", text: "late" },
          ])
          .build(),
      /system message after the start/,
    );
  });

  it("forgets ids minted by a batch that failed before any effect (harness #4 #10)", async () => {
    // Every call is refused by the gate (no effect), then the sink fails: the batch rolls back and
    // its ids are forgotten, so a resumed history may carry them without a reuse error.
    const ids: string[] = [];
    const session = builder(scripted([{ toolCalls: [{ name: "nope", arguments: {} }] }]), [new CounterTool()]).builder.build();
    const out = await session.runTurn("go", {
      onEvent: (e) => {
        if (e.type === "tool_call") ids.push(e.call.callId);
        if (e.type === "tool_result") throw new Error("sink gone");
      },
    });
    assert.equal(out.status === "failed" && out.failure.kind, "sink_failed");
    assert.deepEqual(session.history(), []);
    const registry = (session as unknown as { parts: { ids: { has(id: string): boolean } } }).parts.ids;
    assert.equal(registry.has(ids[0]!), false);
  });

  it("forgets ids minted by a turn that rolled back (harness #10)", async () => {
    const counter = new CounterTool({ requiresApproval: true, proposeFault: true });
    const memory = new InMemoryAgentMemory();
    const session = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }]), [counter], memory).builder.build();
    const out = await session.runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "tool_fatal");
    assert.deepEqual(memory.history, []);
    assert.deepEqual(session.history(), []);
  });
});

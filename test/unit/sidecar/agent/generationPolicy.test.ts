// Generation options, instructions and capabilities (harness #15, #16, #20).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toModelMessages } from "../../../../sidecar/agent/generationPolicy.js";
import { HearthError } from "../../../../shared/errors.js";
import { builder, collect, CounterTool, FnModel, provenCapabilities as caps } from "../../../support/harnessFixtures.js";

const answering = (c = caps()) => new FnModel(async () => ({ text: "ok", reasoning: "I thought", toolCalls: [], stopReason: "end" }), c);

describe("generation options", () => {
  it("uses session options as the base and lets a turn override set fields only (harness #15)", async () => {
    const model = answering();
    const session = builder(model, []).builder.options({ temperature: 0.2, maxTokens: 500, thinking: "on" }).build();
    await session.runTurn("one", { overrides: { temperature: 0.9, thinking: "off" } });
    await session.runTurn("two");
    await session.runTurn("three", { overrides: { seed: 7, temperature: undefined } });
    assert.deepEqual(
      model.requests.map((r) => r.options),
      [
        { temperature: 0.9, maxTokens: 500, thinking: "off" },
        { temperature: 0.2, maxTokens: 500, thinking: "on" },
        { temperature: 0.2, maxTokens: 500, thinking: "on", seed: 7 },
      ],
    );
  });

  it("revalidates a turn's thinking override before anything is journaled (harness #15 #20)", async () => {
    const { memory, builder: b } = builder(answering(caps({ thinkingToggle: "unknown" })), []);
    const session = b.options({ thinking: "auto" }).build();
    await assert.rejects(
      session.runTurn("go", { overrides: { thinking: "on" } }),
      (e: unknown) => e instanceof HearthError && /thinking "on" needs a proven thinking toggle/.test(e.message),
    );
    assert.equal(memory.turns.size, 0);
    assert.equal((await session.runTurn("go")).status, "completed", "a refused turn leaves the session usable");
  });

  it("refuses thinking off, like on, where the model cannot prove it applies the toggle (harness #20, issue 11 item 2)", async () => {
    for (const thinkingToggle of ["unknown", "disproven"] as const) {
      assert.throws(
        () =>
          builder(answering(caps({ thinkingToggle })), [])
            .builder.options({ thinking: "off" })
            .build(),
        /thinking "off" needs a proven thinking toggle/,
      );
      const session = builder(answering(caps({ thinkingToggle })), []).builder.build();
      await assert.rejects(
        session.runTurn("go", { overrides: { thinking: "off" } }),
        /thinking "off" needs a proven thinking toggle.*use thinking "auto"/,
      );
    }
  });

  it("refuses to build a thinking-on agent without a proven toggle (harness #20)", () => {
    assert.throws(
      () =>
        builder(answering(caps({ thinkingToggle: "disproven" })), [])
          .builder.options({ thinking: "on" })
          .build(),
      /proven thinking toggle/,
    );
  });

  it("fails closed on a system prompt or tools the template disproves (harness #20)", () => {
    assert.throws(
      () =>
        builder(answering(caps({ systemRole: "disproven" })), [])
          .builder.systemPrompt("be brief")
          .build(),
      /system role/,
    );
    assert.throws(
      () =>
        builder(answering(caps({ systemRole: "disproven" })), [])
          .builder.history([{ role: "system", text: "resumed" }])
          .build(),
      /system role/,
    );
    assert.throws(() => builder(answering(caps({ toolCalls: "disproven" })), [new CounterTool()]).builder.build(), /tool calls/);
  });

  it("fails closed on unknown capabilities: tools and a system prompt need proven ones (harness #20, issue 11 item 5)", () => {
    assert.throws(
      () => builder(answering(caps({ toolCalls: "unknown" })), [new CounterTool()]).builder.build(),
      /tools need a model whose tool calls are proven.*unknown/,
    );
    assert.throws(
      () =>
        builder(answering(caps({ systemRole: "unknown" })), [])
          .builder.systemPrompt("x")
          .build(),
      /system prompt needs a proven system role.*unknown/,
    );
    assert.ok(
      builder(answering(caps({ toolCalls: "unknown", systemRole: "unknown" })), []).builder.build(),
      "nothing unproven is needed: no refusal",
    );
    assert.ok(
      builder(answering(caps({ reasoningHistory: "unknown" })), [new CounterTool()]).builder.build(),
      "unknown reasoning history defers (no stripping)",
    );
  });
});

describe("instructions", () => {
  it("rejects a system prompt together with a resumed system message (harness #16)", () => {
    const b = builder(answering(), [])
      .builder.systemPrompt("new rules")
      .history([
        { role: "system", text: "old rules" },
        { role: "user", text: "hi" },
        { role: "assistant", text: "hello", toolCalls: [] },
      ]);
    assert.throws(
      () => b.build(),
      (e: unknown) => e instanceof HearthError && /ambiguous/.test(e.message),
    );
  });

  it("sends a configured system prompt first without committing it (harness #16)", async () => {
    const model = answering();
    const { memory, builder: b } = builder(model, []);
    await b.systemPrompt("be brief").build().runTurn("hi");
    assert.deepEqual(
      model.requests[0]!.messages.map((m) => m.role),
      ["system", "user"],
    );
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant"],
    );
  });

  it("replays a resumed system message as the first message (harness #16)", async () => {
    const model = answering();
    await builder(model, [])
      .builder.history([{ role: "system", text: "resumed rules" }])
      .build()
      .runTurn("hi");
    assert.deepEqual(model.requests[0]!.messages[0], { role: "system", text: "resumed rules" });
  });
});

describe("reasoning stripping", () => {
  const resumed = [
    { role: "user" as const, text: "before" },
    { role: "assistant" as const, text: "answer", reasoning: "old thoughts", toolCalls: [] },
  ];

  it("strips reasoning from every request and committed message when history preservation is disproven (harness #20)", async () => {
    const model = answering(caps({ reasoningHistory: "disproven" }));
    const { builder: b } = builder(model, []);
    const session = b.history(resumed).build();
    const sink = collect();
    await session.runTurn("one", { onEvent: sink.onEvent });
    await session.runTurn("two");
    for (const r of model.requests) for (const m of r.messages) assert.ok(!("reasoning" in m), JSON.stringify(m));
    assert.equal(sink.reasoning(), "I thought", "reasoning stays in presentation");
    const stored = session.history()[1]!;
    assert.equal(stored.role === "assistant" && stored.reasoning, "old thoughts", "the stored transcript keeps recorded reasoning");
  });

  it("keeps recorded reasoning in the stored transcript when the template cannot replay it (harness #20, issue 11 item 4)", async () => {
    const model = answering(caps({ reasoningHistory: "disproven" }));
    const { memory, builder: b } = builder(model, []);
    const session = b.build();
    const out = await session.runTurn("one");
    await session.runTurn("two");
    const committed = memory.history[1]!;
    assert.equal(committed.role === "assistant" && committed.reasoning, "I thought", "the journal gets the reasoning the model emitted");
    assert.equal(out.messages[1]!.role === "assistant" && out.messages[1]!.reasoning, "I thought");
    assert.ok(
      model.requests[1]!.messages.every((m) => !("reasoning" in m)),
      "replay to the model still omits it",
    );
  });

  it("keeps reasoning when preservation is proven or unknown (harness #20)", async () => {
    for (const reasoningHistory of ["proven", "unknown"] as const) {
      const model = answering(caps({ reasoningHistory }));
      const { memory, builder: b } = builder(model, []);
      const session = b.history(resumed).build();
      await session.runTurn("one");
      await session.runTurn("two");
      const lastRequest = model.requests[1]!.messages;
      assert.deepEqual(
        lastRequest.filter((m) => m.role === "assistant").map((m) => m.role === "assistant" && m.reasoning),
        ["old thoughts", "I thought"],
      );
      assert.equal(memory.history[1]!.role === "assistant" && memory.history[1]!.reasoning, "I thought");
    }
  });
});

describe("toModelMessages (harness #7, #20)", () => {
  it("replays an assistant message's calls as committed, and its reasoning only where the model keeps it", () => {
    // A mutation run found the calls' mapping and the reasoning branch unguarded.
    const calls = [{ callId: "c1", name: "read_file", arguments: { path: "a.txt" } }];
    const withReasoning = { role: "assistant" as const, text: "t", reasoning: "r", toolCalls: calls };
    const without = { role: "assistant" as const, text: "t", toolCalls: calls };
    assert.deepStrictEqual(toModelMessages([withReasoning], false), [{ role: "assistant", text: "t", reasoning: "r", toolCalls: calls }]);
    assert.deepStrictEqual(toModelMessages([withReasoning], true), [{ role: "assistant", text: "t", toolCalls: calls }]);
    // No reasoning recorded: no `reasoning` key at all (an adapter may tell absent from undefined).
    assert.deepStrictEqual(toModelMessages([without], false), [{ role: "assistant", text: "t", toolCalls: calls }]);
  });
});

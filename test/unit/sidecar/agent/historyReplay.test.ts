// Strict replay of committed history on resume (harness #7, #4, #5, #16): what the replay accepts,
// what it refuses and how, and which tool definitions a replayed call keeps advertised.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { uuidv7 } from "../../../../shared/ids.js";
import { CallIdRegistry } from "../../../../sidecar/agent/callIds.js";
import { calledToolNames, replayHistory } from "../../../../sidecar/agent/historyReplay.js";
import type { AgentMessage } from "../../../../sidecar/agent/messages.js";
import { builder, CounterTool, FnModel, scripted } from "../../../support/harnessFixtures.js";

const CEILING = new Set(["counter", "other"]);
const call = (...calls: { callId: string; name: string }[]): AgentMessage => ({
  role: "assistant",
  text: "",
  toolCalls: calls.map((c) => ({ ...c, arguments: {} })),
});
const result = (callId: string, name = "counter"): AgentMessage => ({ role: "tool", callId, name, ok: true, output: "" });

/** The replay's refusal: a `Conflict` naming the message index and why. */
function refusal(index: number, why: RegExp) {
  return (e: unknown) =>
    e instanceof HearthError &&
    e.code === ErrorCode.Conflict &&
    e.message.startsWith(`refused to resume: history message ${index} `) &&
    why.test(e.message) &&
    e.message.endsWith("; the journal does not hold a history this harness committed");
}

describe("history replay", () => {
  it("accepts a committed history and adopts every call id so none is minted again (harness #7 #4)", () => {
    const [a, b, c] = [uuidv7(), uuidv7(), uuidv7()];
    const ids = new CallIdRegistry();
    replayHistory(
      [
        { role: "system", text: "rules" },
        { role: "user", text: "go" },
        call({ callId: a, name: "counter" }, { callId: b, name: "other" }),
        result(a),
        result(b, "other"),
        call({ callId: c, name: "counter" }),
        result(c),
        { role: "assistant", text: "done", toolCalls: [] },
        { role: "user", text: "again" },
      ],
      CEILING,
      ids,
    );
    assert.deepEqual([ids.has(a), ids.has(b), ids.has(c)], [true, true, true]);
  });

  it("refuses a message that arrives while a call's result is still due (harness #7)", () => {
    const [a, b] = [uuidv7(), uuidv7()];
    const ids = () => new CallIdRegistry();
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }), { role: "user", text: "next" }, result(a)], CEILING, ids()),
      refusal(1, new RegExp(`arrives before the result of call ${a}`)),
    );
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }, { callId: b, name: "counter" }), result(a), call()], CEILING, ids()),
      refusal(2, new RegExp(`arrives before the result of call ${b}`)),
    );
  });

  it("refuses a result with no call due, or one whose tool name differs from its call's (harness #7)", () => {
    const a = uuidv7();
    assert.throws(
      () => replayHistory([{ role: "user", text: "x" }, result(a)], CEILING, new CallIdRegistry()),
      refusal(1, new RegExp(`is a result for ${a} \\(counter\\) where no call was due`)),
    );
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }), result(a), result(a)], CEILING, new CallIdRegistry()),
      refusal(2, /where no call was due/),
    );
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }), result(a, "other")], CEILING, new CallIdRegistry()),
      refusal(1, new RegExp(`is a result for ${a} \\(other\\) where ${a} \\(counter\\) was due`)),
    );
  });

  it("refuses a dangling call at the end, naming the first call without a result (harness #7)", () => {
    const [a, b] = [uuidv7(), uuidv7()];
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }, { callId: b, name: "counter" })], CEILING, new CallIdRegistry()),
      refusal(1, new RegExp(`is missing: call ${a} has no result`)),
    );
  });

  it("refuses a system message after the start and accepts one at the start (harness #7 #16)", () => {
    assert.doesNotThrow(() => replayHistory([{ role: "system", text: "rules" }], CEILING, new CallIdRegistry()));
    assert.throws(
      () =>
        replayHistory(
          [
            { role: "system", text: "rules" },
            { role: "system", text: "late" },
          ],
          CEILING,
          new CallIdRegistry(),
        ),
      refusal(1, /is a system message after the start/),
    );
  });

  it("refuses a call outside the tool ceiling and a reused id as a Conflict (harness #7 #4 #5)", () => {
    const a = uuidv7();
    assert.throws(
      () => replayHistory([call({ callId: a, name: "shell" }), result(a, "shell")], CEILING, new CallIdRegistry()),
      refusal(0, /calls tool "shell", outside this session's tool ceiling, and its result is not the gate's refusal/),
    );
    assert.throws(
      () => replayHistory([call({ callId: a, name: "counter" }, { callId: a, name: "counter" })], CEILING, new CallIdRegistry()),
      refusal(0, new RegExp(`call id ${a} appears twice in the history`)),
    );
  });

  it("names the tools called in assistant messages only, adding to the set it is given (harness #5)", () => {
    const [a, b] = [uuidv7(), uuidv7()];
    const into = new Set(["kept"]);
    const out = calledToolNames(
      [{ role: "user", text: "x" }, call({ callId: a, name: "counter" }, { callId: b, name: "other" }), result(a), result(b, "other")],
      into,
    );
    assert.equal(out, into);
    assert.deepEqual([...out], ["kept", "counter", "other"]);
    assert.deepEqual([...calledToolNames([result(a, "ghost")])], []);
  });

  it("keeps a disabled tool advertised when the resumed history calls it (harness #7 #5)", async () => {
    const a = uuidv7();
    const model = new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));
    const session = builder(model, [new CounterTool({ name: "counter" }), new CounterTool({ name: "other" })])
      .builder.history([
        { role: "user", text: "go" },
        call({ callId: a, name: "counter" }),
        result(a),
        { role: "assistant", text: "done", toolCalls: [] },
      ])
      .build();
    session.disableTools(["counter", "other"]);
    await session.runTurn("again");
    assert.deepEqual(
      model.requests[0]!.tools.map((t) => t.name),
      ["counter"],
    );
  });
  it("committed history always replays: a turn whose model called a made-up tool resumes, and the name stays unadvertised (harness #7, #5)", async () => {
    const first = builder(scripted([{ toolCalls: [{ name: "nosuch_tool", arguments: {} }] }, { text: ["answered without it"] }]), [
      new CounterTool(),
    ]);
    const done = await first.builder.build().runTurn("go");
    assert.equal(done.status, "completed");
    const refused = done.messages.find((m) => m.role === "tool");
    assert.equal(refused?.role === "tool" && refused.resultKind, "refused", "the gate's refusal is typed as such");
    for (let resume = 0; resume < 2; resume++) {
      const model = new FnModel(async () => ({ text: "next", reasoning: "", toolCalls: [], stopReason: "end" }));
      const next = await builder(model, [new CounterTool()]).builder.history(done.messages).build().runTurn("again");
      assert.equal(next.status, "completed", next.status === "completed" ? "" : next.failure.message);
      assert.deepEqual(
        model.requests[0]!.tools.map((t) => t.name),
        ["counter"],
        "a name outside the ceiling is never advertised",
      );
    }
  });

  it("a call outside the ceiling replays only with the gate's refusal as its result (harness #7, #5)", () => {
    const a = uuidv7();
    const answered = (resultKind: "refused" | "claimed" | undefined, ok = false): AgentMessage[] => [
      call({ callId: a, name: "shell" }),
      { role: "tool", callId: a, name: "shell", ok, output: "whatever the words", ...(resultKind ? { resultKind } : {}) },
    ];
    replayHistory(answered("refused"), CEILING, new CallIdRegistry());
    for (const [kind, ok] of [
      ["claimed", false],
      [undefined, false],
      ["refused", true],
    ] as const)
      assert.throws(
        () => replayHistory(answered(kind, ok), CEILING, new CallIdRegistry()),
        refusal(0, /calls tool "shell", outside this session's tool ceiling, and its result is not the gate's refusal/),
        `${String(kind)} ok=${ok}`,
      );
  });
});

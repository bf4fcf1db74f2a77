// The scripted replay adapter (sidecar/inference/scripted): opt-in, validated, restart-safe.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { AgentSessionBuilder } from "../../../../../sidecar/agent/index.js";
import type { ModelChunk } from "../../../../../sidecar/agent/ports/model.js";
import { ScriptedModel } from "../../../../../sidecar/inference/scripted/scriptedModel.js";
import {
  assertStructurallyComplete,
  AUTHORITY,
  builder,
  collect,
  CounterTool,
  OPT_IN,
  scripted,
} from "../../../../support/harnessFixtures.js";

const FIXTURES = path.resolve("test/fixtures/scripts");
const demo = path.join(FIXTURES, "count-then-answer.json");

describe("scripted model adapter", () => {
  it("refuses to load without the explicit opt-in and says how to opt in (harness #1)", () => {
    assert.throws(
      () => ScriptedModel.fromFile(demo, {}),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Refused && /set HEARTH_ALLOW_SCRIPTED=1/.test(e.message),
    );
    assert.throws(() => ScriptedModel.fromFile(demo, { HEARTH_ALLOW_SCRIPTED: "true" }), /HEARTH_ALLOW_SCRIPTED=1/);
  });

  it("opens a scripted:FILE model spec and refuses other specs", () => {
    assert.equal(ScriptedModel.fromSpec(`scripted:${demo}`, OPT_IN).modelId, "scripted-counter-demo");
    assert.throws(() => ScriptedModel.fromSpec("openai:http://x#m", OPT_IN), /write scripted:PATH_TO_SCRIPT\.json/);
    assert.throws(() => ScriptedModel.fromSpec(`scripted:${demo}`, {}), /HEARTH_ALLOW_SCRIPTED=1/);
  });

  it("names the bad field of an invalid script", () => {
    assert.throws(
      () => ScriptedModel.fromFile(path.join(FIXTURES, "bad-tool-name.json"), OPT_IN),
      (e: unknown) =>
        e instanceof HearthError && /rounds\[1\]\.toolCalls\[0\]\.name: /.test(e.message) && /docs\/scripted-adapter\.md/.test(e.message),
    );
    assert.throws(() => ScriptedModel.fromJson({ rounds: [{ text: "not a list" }] }, "inline", OPT_IN), /rounds\[0\]\.text: /);
    assert.throws(() => ScriptedModel.fromJson({ rounds: [{ txt: ["typo"] }] }, "inline", OPT_IN), /rounds\[0\]: .*txt/);
    assert.throws(() => ScriptedModel.fromJson({ rounds: [] }, "inline", OPT_IN), /rounds: /);
    assert.throws(() => ScriptedModel.fromFile(path.join(FIXTURES, "missing.json"), OPT_IN), /cannot read scripted model/);
  });

  it("a round's expectSystemIncludes/Excludes fail it unless its system instructions say (and leave out) exactly that", async () => {
    const model = ScriptedModel.fromJson(
      { rounds: [{ text: ["ok"], expectSystemIncludes: ["## AGENTS.md", "use tabs"], expectSystemExcludes: ["vendor/"] }] },
      "inline",
      OPT_IN,
    );
    const ask = (system: string) =>
      model.generate(
        {
          sessionKey: "s",
          messages: [
            { role: "system", text: system },
            { role: "user", text: "hi" },
          ],
          tools: [],
          options: {},
          signal: new AbortController().signal,
        },
        () => {},
      );
    assert.equal((await ask("## AGENTS.md\nuse tabs")).text, "ok");
    await assert.rejects(ask("## AGENTS.md\nuse spaces"), /expects its system instructions to include \["use tabs"\]/);
    await assert.rejects(ask("## AGENTS.md\nuse tabs; never touch vendor/"), /not to include \["vendor\/"\]/);
  });

  it("drives a multi-round turn with tool calls end to end (harness #3 #6)", async () => {
    const tool = new CounterTool();
    const model = ScriptedModel.fromFile(demo, OPT_IN);
    assert.equal(model.modelId, "scripted-counter-demo");
    const { memory, builder: b } = builder(model, [tool]);
    const sink = collect();
    const out = await b.build().runTurn("count to five", { onEvent: sink.onEvent });
    assert.equal(out.status, "completed");
    assert.equal(tool.value, 5);
    assert.equal(sink.answer(), "I will count.The counter is 5.");
    assert.equal(sink.reasoning(), "The user wants a count.");
    assert.deepEqual(
      sink.events.filter((e) => e.type === "tool_call" || e.type === "tool_result").map((e) => e.type),
      ["tool_call", "tool_result", "tool_call", "tool_result"],
    );
    assertStructurallyComplete(memory.history);
  });

  it("a round can require the tool outputs it is shown, so a test asserts what a result or denial tells the model", async () => {
    const script = (expected: string[]) =>
      ScriptedModel.fromJson(
        {
          rounds: [
            {
              toolCalls: [
                { name: "counter", arguments: { by: 2 } },
                { name: "counter", arguments: { by: 3 } },
              ],
            },
            { text: ["done"], expectToolOutputs: expected },
          ],
        },
        "inline",
        OPT_IN,
      );
    const shown = await builder(script(["counter=2", "counter=5"]), [new CounterTool()])
      .builder.build()
      .runTurn("count");
    assert.equal(shown.status, "completed");
    const other = await builder(script(["counter=5"]), [new CounterTool()])
      .builder.build()
      .runTurn("count");
    assert.equal(other.status, "failed");
    assert.match(
      other.status === "failed" ? other.failure.message : "",
      /expects the tool outputs \["counter=5"\] and was shown \["counter=2","counter=5"\]/,
    );
  });

  it("derives the next round from committed history, so a restart continues the script", async () => {
    const tool = new CounterTool();
    const first = builder(ScriptedModel.fromFile(demo, OPT_IN), [tool]);
    await first.builder.build().runTurn("turn one");
    // A "restarted kernel": a fresh adapter and a session rebuilt from the journal's history.
    const session = new AgentSessionBuilder()
      .model(ScriptedModel.fromFile(demo, OPT_IN))
      .tools([tool])
      .memory(first.memory)
      .authorityInputs(AUTHORITY)
      .history(first.memory.history)
      .build();
    const out = await session.runTurn("turn two");
    assert.equal(out.status, "completed");
    assert.equal(tool.value, 6);
    const last = out.messages.at(-1)!;
    assert.equal(last.role === "assistant" && last.text, "Now it is 6.");
  });

  it("fails with a clear message when the script is exhausted", async () => {
    const { memory, builder: b } = builder(scripted([{ text: ["only round"] }]), []);
    const session = b.build();
    await session.runTurn("one");
    const out = await session.runTurn("two");
    assert.equal(out.status === "failed" && out.failure.kind, "model_failed");
    assert.match(out.status === "failed" ? out.failure.message : "", /has 1 rounds and the session asks for round 2/);
    assert.equal(memory.history.length, 2);
  });

  it("stops at the abort signal and returns only after its own work stopped (harness #18 #22)", async () => {
    const model = scripted([{ text: ["a", "b", "c", "d"], delayMs: 20 }]);
    const chunks: ModelChunk[] = [];
    const ac = new AbortController();
    const run = model.generate({ sessionKey: "s", messages: [], tools: [], options: {}, signal: ac.signal }, (c) => {
      chunks.push(c);
      if (chunks.length === 2) ac.abort(new Error("stop now"));
    });
    await assert.rejects(run, /stop now/);
    assert.deepEqual(
      chunks.map((c) => ("text" in c ? c.text : c.type)),
      ["a", "b"],
    );
  });

  it("streams a round's calls as a model writes them when asked: each call's start, then its arguments in pieces (issue 25 item 4)", async () => {
    const calls = [
      { name: "read_file", arguments: { path: "README.md" } },
      { name: "list_dir", arguments: {} },
    ];
    const chunks: ModelChunk[] = [];
    const round = await scripted([{ text: ["Looking."], toolCalls: calls, toolCallPieces: 3 }]).generate(
      { sessionKey: "s", messages: [], tools: [], options: {}, signal: new AbortController().signal },
      (c) => chunks.push(c),
    );
    assert.deepEqual(
      chunks.map((c) =>
        c.type === "tool_call_started" ? `start ${c.index} ${c.name}` : c.type === "tool_call_args" ? `args ${c.index} ${c.chars}` : c.type,
      ),
      ["answer", "start 0 read_file", "args 0 7", "args 0 7", "args 0 6", "start 1 list_dir", "args 1 1", "args 1 1"],
    );
    assert.deepEqual(
      round.toolCalls.map((c) => c.name),
      ["read_file", "list_dir"],
    );
    // Unasked, the calls arrive only with the round, as before.
    const plain: ModelChunk[] = [];
    await scripted([{ toolCalls: calls }]).generate(
      { sessionKey: "s", messages: [], tools: [], options: {}, signal: new AbortController().signal },
      (c) => plain.push(c),
    );
    assert.deepEqual(plain, []);
  });

  it("a round asked to stop at the token cap ends with max_tokens, others as they always did (issue 25 item 10)", async () => {
    const request = () => ({ sessionKey: "s", messages: [], tools: [], options: {}, signal: new AbortController().signal });
    const model = scripted([{ text: ["Cut"], stoppedAtTokenCap: true }]);
    assert.equal((await model.generate(request(), () => {})).stopReason, "max_tokens");
    assert.equal((await scripted([{ text: ["Whole."] }]).generate(request(), () => {})).stopReason, "end");
  });

  it("stops generating when the chunk consumer throws (harness #18)", async () => {
    const model = scripted([{ text: ["a", "b", "c"] }]);
    let calls = 0;
    await assert.rejects(
      model.generate({ sessionKey: "s", messages: [], tools: [], options: {}, signal: new AbortController().signal }, () => {
        calls++;
        throw new Error("sink broke");
      }),
      /sink broke/,
    );
    assert.equal(calls, 1);
  });
});

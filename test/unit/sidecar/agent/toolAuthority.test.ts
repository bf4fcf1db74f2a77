// The tool authority ceiling, the execution gate, the bounded schema vocabulary and the authority
// snapshot (harness #5, #19, #21).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HearthError } from "../../../../shared/errors.js";
import { uuidv7 } from "../../../../shared/ids.js";
import {
  AgentSessionBuilder,
  argumentProblems,
  inputHashOf,
  vocabularyProblems,
  type ApprovalRequest,
} from "../../../../sidecar/agent/index.js";
import type { Tool } from "../../../../sidecar/agent/ports/tools.js";
import { approveAll, AUTHORITY, builder, collect, CounterTool, FnModel, scripted } from "../../../support/harnessFixtures.js";

const answerOnly = () => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));

describe("tool authority ceiling", () => {
  it("starts with every name enabled and shrinks inside the ceiling; a new run's session starts whole again (harness #5)", () => {
    const tools = [new CounterTool({ name: "a" }), new CounterTool({ name: "b" })];
    const session = builder(answerOnly(), tools).builder.build();
    assert.deepEqual(session.activeTools(), ["a", "b"]);
    session.disableTools(["a"]);
    assert.deepEqual(session.activeTools(), ["b"]);
    assert.deepEqual(builder(answerOnly(), tools).builder.build().activeTools(), ["a", "b"]);
  });

  it("rejects replacement with an unknown name atomically and keeps the snapshot (harness #5)", () => {
    const session = builder(answerOnly(), [new CounterTool({ name: "a" }), new CounterTool({ name: "b" })]).builder.build();
    const before = session.authority.digests.authority;
    session.disableTools(["b"]);
    assert.throws(
      () => session.disableTools(["a", "shell"]),
      (e: unknown) => e instanceof HearthError && /"shell": not in this session's tool ceiling/.test(e.message),
    );
    assert.deepEqual(session.activeTools(), ["a"]);
    assert.equal(session.authority.digests.authority, before);
  });

  it("keeps definitions immutable after build (harness #5)", async () => {
    const tool = new CounterTool();
    const { builder: b } = builder(answerOnly(), [tool]);
    const session = b.build();
    (tool.definition.parameters.properties as Record<string, unknown>).by = { type: "string" };
    assert.equal((session.authority.tools[0]!.parameters as { properties: { by: { type: string } } }).properties.by.type, "integer");
    assert.throws(() => {
      (session.authority.tools as unknown as unknown[]).push({});
    });
  });

  it("advertises active definitions plus disabled ones that history calls (harness #5)", async () => {
    const a = new CounterTool({ name: "a" });
    const model = new FnModel(async (_r, _c, round) =>
      round === 0
        ? { text: "", reasoning: "", toolCalls: [{ name: "a", arguments: { by: 1 } }], stopReason: "tool_calls" }
        : { text: "done", reasoning: "", toolCalls: [], stopReason: "end" },
    );
    const session = builder(model, [a, new CounterTool({ name: "b" }), new CounterTool({ name: "c" })]).builder.build();
    await session.runTurn("go");
    session.disableTools(["a", "c"]);
    await session.runTurn("again");
    const names = (i: number) => model.requests[i]!.tools.map((t) => t.name);
    assert.deepEqual(names(0), ["a", "b", "c"]);
    assert.deepEqual(names(2), ["a", "b"]); // a is disabled but a committed call needs its definition; c is not advertised
  });

  it("answers a disabled call with a synthetic result before approval or invocation (harness #5)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const asked: ApprovalRequest[] = [];
    const sink = collect();
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["ok"] }]), [
      tool,
    ]);
    const session = b
      .approval({
        request: async (r) => {
          asked.push(r);
          return approveAll.request(r);
        },
      })
      .build();
    session.disableTools(["counter"]);
    const out = await session.runTurn("go", { onEvent: sink.onEvent });
    assert.equal(out.status, "completed");
    const result = out.messages[2]!;
    assert.equal(result.role === "tool" && result.ok, false);
    assert.match(result.role === "tool" ? result.output : "", /disabled/);
    assert.deepEqual([asked.length, tool.proposals.length, tool.effects.length, memory.ledger.size], [0, 0, 0, 0]);
    assert.ok(sink.events.some((e) => e.type === "tool_result" && !e.ok));
  });

  it("answers a call to an unknown tool with a synthetic result (harness #5)", async () => {
    const { builder: b } = builder(scripted([{ toolCalls: [{ name: "rm_rf", arguments: {} }] }, { text: ["ok"] }]), [new CounterTool()]);
    const out = await b.build().runTurn("go");
    const r = out.messages[2]!;
    assert.match(r.role === "tool" ? r.output : "", /no tool named "rm_rf"/);
  });

  it("rechecks proposed arguments against the schema before dispatch (harness #5)", async () => {
    const tool = new CounterTool();
    const { memory, builder: b } = builder(
      scripted([
        {
          toolCalls: [
            { name: "counter", arguments: { by: "lots" } },
            { name: "counter", arguments: { by: 500 } },
            { name: "counter", arguments: { by: 1, extra: true } },
            { name: "counter", arguments: [1] },
          ],
        },
        { text: ["ok"] },
      ]),
      [tool],
    );
    const out = await b.build().runTurn("go");
    const outputs = out.messages.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    assert.equal(outputs.length, 4);
    assert.match(outputs[0]!, /\$\.by: expected an integer/);
    assert.match(outputs[1]!, /above the maximum 100/);
    assert.match(outputs[2]!, /extra: not a declared property/);
    assert.match(outputs[3]!, /not a JSON object/);
    assert.deepEqual([tool.effects.length, memory.ledger.size], [0, 0]);
  });
});

describe("bounded JSON Schema vocabulary (harness #5)", () => {
  it("refuses to build a tool whose schema leaves the vocabulary (harness #5)", () => {
    const bad: Tool = new CounterTool();
    (bad.definition as { parameters: unknown }).parameters = {
      type: "object",
      properties: { p: { type: "string", pattern: "^a" }, list: { type: "array", items: { type: "string" } } },
      required: ["missing"],
    };
    assert.throws(
      () => builder(answerOnly(), [bad]).builder.build(),
      (e: unknown) =>
        e instanceof HearthError &&
        /properties\.p\.pattern/.test(e.message) &&
        /maxItems: required/.test(e.message) &&
        /required: must list/.test(e.message),
    );
  });

  it("accepts every keyword of the vocabulary and checks each (harness #5)", () => {
    const schema = {
      type: "object" as const,
      properties: {
        s: { type: "string" as const, enum: ["a", "bb"], minLength: 1, maxLength: 2 },
        n: { type: "number" as const, minimum: 0, maximum: 1 },
        b: { type: "boolean" as const },
        l: { type: "array" as const, items: { type: "integer" as const }, maxItems: 2 },
      },
      required: ["s"],
      additionalProperties: false as const,
    };
    assert.deepEqual(vocabularyProblems(schema), []);
    assert.deepEqual(argumentProblems(schema, { s: "bb", n: 0.5, b: true, l: [1, 2] }), []);
    assert.deepEqual(argumentProblems(schema, { s: "c", n: 2, b: 1, l: [1, 2.5, 3] }), [
      '$.s: must be one of "a", "bb"',
      "$.n: above the maximum 1",
      "$.b: expected a boolean",
      "$.l: more than 2 items",
      "$.l[1]: expected an integer",
    ]);
    assert.deepEqual(argumentProblems(schema, {}), ["$.s: required"]);
  });

  it("refuses duplicate names and unknown cancellation policies (harness #5 #21)", () => {
    const odd = new CounterTool({ name: "x" });
    (odd.definition as { cancellation: string }).cancellation = "WhenConvenient";
    assert.throws(() => builder(answerOnly(), [new CounterTool(), new CounterTool()]).builder.build(), /registered twice/);
    assert.throws(() => builder(answerOnly(), [odd]).builder.build(), /WhenConvenient/);
  });
});

describe("authority snapshot (harness #19)", () => {
  const tools = () => [new CounterTool({ name: "zeta" }), new CounterTool({ name: "alpha", cancellation: "Interruptible" })];

  it("is versioned, name-sorted, records cancellation policies and is what build uses (harness #19 #21)", () => {
    const { builder: b } = builder(answerOnly(), tools());
    const snap = b.authoritySnapshot();
    assert.equal(snap.version, 1);
    assert.deepEqual(
      snap.tools.map((t) => t.name),
      ["alpha", "zeta"],
    );
    assert.deepEqual(snap.cancellationPolicies, { alpha: "Interruptible", zeta: "FinishOnceStarted" });
    assert.deepEqual(snap.workspace, { path: "/ws/project", dev: "2049", ino: "131073" });
    assert.deepEqual(b.build().authority, snap);
    assert.deepEqual(b.build().authority, snap, "the builder stays reusable");
    assert.equal(
      new AgentSessionBuilder().tools(tools().reverse()).authorityInputs(AUTHORITY).authoritySnapshot().digests.authority,
      snap.digests.authority,
    );
  });

  it("leaves approval policy out of the snapshot (harness #19)", () => {
    const { builder: b } = builder(answerOnly(), tools());
    const before = b.authoritySnapshot().digests.authority;
    assert.equal(b.approval(approveAll).authoritySnapshot().digests.authority, before);
  });

  it("fails a drifted resume closed and names what drifted (harness #19)", () => {
    const recorded = builder(answerOnly(), tools()).builder.authoritySnapshot().digests;
    const resume = (inputs = AUTHORITY, ts: Tool[] = tools()) =>
      new AgentSessionBuilder()
        .model(answerOnly())
        .memory(builder(answerOnly(), []).memory)
        .tools(ts)
        .authorityInputs(inputs)
        .expectAuthority(recorded)
        .build();
    assert.ok(resume());
    assert.throws(() => resume({ ...AUTHORITY, workspaceIdentity: { dev: "2049", ino: "999" } }), /authority drifted \(workspace changed/);
    assert.throws(() => resume({ ...AUTHORITY, ceilings: { shellTimeoutMs: 1_200_000 } }), /ceilings changed/);
    assert.throws(() => resume({ ...AUTHORITY, enablement: { web_fetch: true } }), /enablement changed/);
    const drifted = tools();
    (drifted[0]!.definition as { identityDigest: string }).identityDigest = "sha256:other-PATH";
    assert.throws(() => resume(AUTHORITY, drifted), /tools changed/);
  });

  it("carries the authority digest into every ledger claim (harness #19)", async () => {
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "alpha", arguments: { by: 1 } }] }, { text: ["ok"] }]), tools());
    const session = b.build();
    await session.runTurn("go");
    const [entry] = [...memory.ledger.values()];
    assert.equal(entry!.claim.authorityDigest, session.authority.digests.authority);
    assert.equal(entry!.claim.inputHash, inputHashOf({ by: 1 }));
    assert.deepEqual(entry!.claim.input, { by: 1 });
    assert.equal([...memory.turns.values()][0]!.start.authorityDigest, session.authority.digests.authority);
  });

  it("refuses to resume a history that calls a tool outside the ceiling (harness #5 #19)", () => {
    const id = uuidv7();
    assert.throws(
      () =>
        builder(answerOnly(), tools())
          .builder.history([
            { role: "assistant", text: "", toolCalls: [{ callId: id, name: "shell", arguments: {} }] },
            { role: "tool", callId: id, name: "shell", ok: true, output: "" },
          ])
          .build(),
      /outside this session's tool ceiling/,
    );
  });
});

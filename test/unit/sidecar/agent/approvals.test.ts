// Approvals: exact, asynchronous, one-shot, default deny, bounded single-line reasons (harness #8).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isBoundedReason } from "../../../support/historyAssertions.js";
import { inputHashOf, type AgentMessage, type ApprovalPort, type ApprovalRequest } from "../../../../sidecar/agent/index.js";
import { builder, collect, CounterTool, deferred, scripted } from "../../../support/harnessFixtures.js";

const oneCall = (extra: unknown[] = []) =>
  scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }, ...extra] }, { text: ["ok"] }]);
const toolOutputs = (messages: AgentMessage[]) => messages.flatMap((m) => (m.role === "tool" ? [m.output] : []));

/** An approval port that records each request and answers every one with `decision` for its exact call. */
function recordingApproval(decision: "approve" | "deny", reason: string) {
  const asked: ApprovalRequest[] = [];
  const approval: ApprovalPort = {
    request: async (r) => {
      asked.push(r);
      return { decision, callId: r.call.callId, inputHash: r.inputHash, reason };
    },
  };
  return { asked, approval };
}

describe("approvals", () => {
  it("denies by default, with a bounded single-line reason, and runs nothing (harness #8)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const { memory, builder: b } = builder(oneCall(), [tool]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed");
    const [output] = toolOutputs(out.messages);
    assert.match(output!, /^denied: denied by default policy/);
    assert.ok(isBoundedReason(output!));
    assert.deepEqual([tool.effects.length, memory.ledger.size], [0, 0]);
  });

  it("asks with the exact call, its input hash, effect class and preview (harness #8)", async () => {
    const { asked, approval } = recordingApproval("approve", "ok");
    const tool = new CounterTool({ requiresApproval: true });
    const { builder: b } = builder(oneCall(), [tool]);
    const out = await b.approval(approval).build().runTurn("go");
    assert.equal(asked.length, 1);
    const call = out.messages[1]!.role === "assistant" ? out.messages[1]!.toolCalls[0]! : undefined;
    assert.deepEqual(asked[0]!.call, call);
    assert.equal(asked[0]!.inputHash, inputHashOf({ by: 1 }));
    assert.equal(asked[0]!.effectClass, "non_idempotent_write");
    assert.deepEqual(asked[0]!.preview, { kind: "text", text: "add 1" });
    assert.equal(tool.value, 1);
  });

  it("asks before a read when the person wants reads approved, and runs it only when approved (issue 10 item 5; harness #8)", async () => {
    const { asked, approval } = recordingApproval("deny", "not now");
    const read = new CounterTool({ effectClass: "read" });
    const { builder: b } = builder(oneCall(), [read]);
    const out = await b.approval(approval).approveReads(true).build().runTurn("go");
    assert.deepEqual(
      asked.map((r) => r.effectClass),
      ["read"],
    );
    assert.equal(read.effects.length, 0, "a denied read does not run");
    assert.match(toolOutputs(out.messages)[0]!, /^denied: not now/);
    const plain = builder(oneCall(), [new CounterTool({ effectClass: "read" })]);
    await plain.builder.approval(approval).build().runTurn("go");
    assert.equal(asked.length, 1, "by default a read asks no one");
  });

  it("hashes input canonically: key order does not matter, any value change does (harness #8)", () => {
    const args = { b: [1, { z: "x", a: null }], a: "é" };
    assert.equal(inputHashOf(args), inputHashOf({ a: "é", b: [1, { a: null, z: "x" }] }));
    assert.notEqual(inputHashOf(args), inputHashOf({ ...args, a: "e" }));
  });

  it("asks once per call, never reusing an answer for an identical call (harness #8)", async () => {
    let asks = 0;
    const approval: ApprovalPort = {
      request: async (r) => {
        asks++;
        return { decision: asks === 1 ? "approve" : "deny", callId: r.call.callId, inputHash: r.inputHash, reason: `answer ${asks}` };
      },
    };
    const tool = new CounterTool({ requiresApproval: true });
    const { builder: b } = builder(oneCall([{ name: "counter", arguments: { by: 1 } }]), [tool]);
    const out = await b.approval(approval).build().runTurn("go");
    assert.equal(asks, 2);
    assert.equal(tool.effects.length, 1);
    assert.match(toolOutputs(out.messages)[1]!, /^denied: answer 2/);
  });

  it("treats an answer for another call or input as a denial (harness #8)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const approval: ApprovalPort = {
      request: async (r) => ({ decision: "approve", callId: r.call.callId, inputHash: inputHashOf({ by: 99 }), reason: "yes" }),
    };
    const { builder: b } = builder(oneCall(), [tool]);
    const out = await b.approval(approval).build().runTurn("go");
    assert.match(toolOutputs(out.messages)[0]!, /different call or input/);
    assert.equal(tool.effects.length, 0);
  });

  it("treats a failing approver as a denial, never an approval (harness #8)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const { builder: b } = builder(oneCall(), [tool]);
    const out = await b
      .approval({
        request: async () => {
          throw new Error("client went away\nmid-question");
        },
      })
      .build()
      .runTurn("go");
    const [output] = toolOutputs(out.messages);
    assert.match(output!, /^denied: the approval request failed \(client went away mid-question\)/);
    assert.ok(isBoundedReason(output!));
    assert.equal(tool.effects.length, 0);
  });

  it("bounds multi-line, empty and huge reasons to one line (harness #8)", async () => {
    for (const reason of ["no\nway", "", "x".repeat(5000)]) {
      const { builder: b } = builder(oneCall(), [new CounterTool({ requiresApproval: true })]);
      const out = await b
        .approval({ request: async (r) => ({ decision: "deny", callId: r.call.callId, inputHash: r.inputHash, reason }) })
        .build()
        .runTurn("go");
      const [output] = toolOutputs(out.messages);
      assert.ok(isBoundedReason(output!), JSON.stringify(output));
    }
  });

  it("waits asynchronously and reports waiting_approval as status (harness #8)", async () => {
    const answer = deferred<void>();
    const sink = collect();
    const approval: ApprovalPort = {
      request: async (r) => {
        await answer.promise;
        return { decision: "approve", callId: r.call.callId, inputHash: r.inputHash, reason: "later" };
      },
    };
    const tool = new CounterTool({ requiresApproval: true });
    const { builder: b } = builder(oneCall(), [tool]);
    const turn = b.approval(approval).build().runTurn("go", { onEvent: sink.onEvent });
    await new Promise((r) => setTimeout(r, 5));
    assert.ok(sink.events.some((e) => e.type === "status" && e.status === "waiting_approval"));
    assert.equal(tool.effects.length, 0);
    answer.resolve();
    assert.equal((await turn).status, "completed");
    assert.equal(tool.value, 1);
  });

  it("skips the approver for tools that do not require approval (harness #8)", async () => {
    let asks = 0;
    const { builder: b } = builder(oneCall(), [new CounterTool({ requiresApproval: false })]);
    await b
      .approval({
        request: async (r) => {
          asks++;
          return { decision: "deny", callId: r.call.callId, inputHash: r.inputHash, reason: "no" };
        },
      })
      .build()
      .runTurn("go");
    assert.equal(asks, 0);
  });

  it("a call whose proposal the tool refused asks no one and fails with the refusal, its claim settled without dispatch (harness #8, #6)", async () => {
    const refusal = "refused: oldText was not found in a.txt; read the file and copy the text exactly";
    let asks = 0;
    const approval: ApprovalPort = {
      request: async (r) => {
        asks++;
        return { decision: "approve", callId: r.call.callId, inputHash: r.inputHash, reason: "yes" };
      },
    };
    const tool = new CounterTool({ requiresApproval: true, refuse: refusal });
    const sink = collect();
    const { memory, builder: b } = builder(oneCall(), [tool]);
    const out = await b.approval(approval).build().runTurn("go", { onEvent: sink.onEvent });
    assert.equal(out.status, "completed");
    assert.equal(asks, 0, "the person is not asked about a call that cannot run");
    assert.ok(!sink.events.some((e) => e.type === "status" && e.status === "waiting_approval"));
    const result = out.messages.find((m) => m.role === "tool");
    assert.deepEqual(result && { ok: result.ok, output: result.output }, { ok: false, output: refusal });
    assert.equal(tool.effects.length, 0);
    const [entry] = [...memory.ledger.values()];
    assert.deepEqual(entry && [entry.status, entry.reason], ["failed", refusal], "journaled with its failed outcome, never dispatched");
  });
  it("an approver that answers nothing (undefined, null, a bare string) is a denial, never an internal error (harness #8: the default denies)", async () => {
    for (const answer of [undefined, null, "approve"]) {
      const approval = { request: async () => answer } as unknown as ApprovalPort;
      const tool = new CounterTool({ requiresApproval: true });
      const { memory, builder: b } = builder(oneCall(), [tool]);
      const out = await b.approval(approval).build().runTurn("go");
      assert.equal(out.status, "completed", `answer ${String(answer)}: ${out.status === "completed" ? "" : out.failure.message}`);
      const [output] = toolOutputs(out.messages);
      assert.match(output!, /^denied: the approver gave no decision/, String(answer));
      assert.ok(isBoundedReason(output!));
      assert.deepEqual([tool.effects.length, memory.ledger.size], [0, 0], "nothing ran and nothing was claimed");
    }
  });
});

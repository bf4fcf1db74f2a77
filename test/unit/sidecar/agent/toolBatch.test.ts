// One tool batch's results and claims (harness #6): added with the mutation run of toolBatch.ts
// (docs/mutation.md), which found a tool fault that was no Error recorded as `not run`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../../shared/ids.js";
import type { AgentMessage, ApprovalPort } from "../../../../sidecar/agent/index.js";
import { approveAll, assertStructurallyComplete, builder, CounterTool, deferred, scripted } from "../../../support/harnessFixtures.js";

const oneCall = () => scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["ok"] }]);
const toolOutputs = (messages: readonly AgentMessage[]) => messages.flatMap((m) => (m.role === "tool" ? [m.output] : []));

describe("tool batch", () => {
  it("a tool that rejects with something other than an Error keeps its real fault as its result and a settled claim, never `not run` (harness #6)", async () => {
    for (const thrown of [undefined, null, "out of disk"]) {
      const tool = new CounterTool({ hold: () => Promise.reject(thrown) });
      const { memory, builder: b } = builder(
        scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["unreachable"] }]),
        [tool],
      );
      const out = await b.build().runTurn("go");
      assert.equal(out.status === "failed" && out.failure.kind, "tool_fatal", String(thrown));
      assert.equal(tool.effects.length, 1, "the call started");
      assertStructurallyComplete(memory.history);
      const result = memory.history.find((m) => m.role === "tool");
      assert.equal(result?.role === "tool" && result.output, `failed: tool counter faulted: ${String(thrown)}`);
      assert.deepEqual(
        [...memory.ledger.values()].map((e) => e.status),
        ["failed"],
        "the dispatched claim is settled, not left open",
      );
    }
  });

  it("a result that says its effect was sent but its answer lost settles the claim outcome_unknown, never failed or succeeded (harness #22, issue 28)", async () => {
    class LostAnswer extends CounterTool {
      override async invoke(args: Record<string, unknown>, p: unknown, ctx: { callId: string; signal: AbortSignal }) {
        await super.invoke(args, p, ctx);
        return { ok: false, output: "outcome unknown: the server stopped mid-call", outcomeUnknown: true };
      }
    }
    const tool = new LostAnswer();
    const { memory, builder: b } = builder(oneCall(), [tool]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed", "the turn goes on: the model reads that the outcome is unknown");
    assert.equal(tool.effects.length, 1, "sent once, never again");
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => [e.status, e.reason]),
      [["outcome_unknown", "outcome unknown: the server stopped mid-call"]],
    );
    assert.deepEqual(toolOutputs(out.messages), ["outcome unknown: the server stopped mid-call"]);
  });

  it("an approval for another call id is a denial, even with the same input (harness #8)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const approval: ApprovalPort = { request: async (r) => ({ ...(await approveAll.request(r)), callId: uuidv7() }) };
    const out = await builder(oneCall(), [tool]).builder.approval(approval).build().runTurn("go");
    assert.match(toolOutputs(out.messages)[0]!, /^denied: the approval answered a different call/);
    assert.equal(tool.effects.length, 0);
  });

  it("an approver that rejects with no Error is a denial, never an approval or a harness fault (harness #8)", async () => {
    const tool = new CounterTool({ requiresApproval: true });
    const approval: ApprovalPort = { request: () => Promise.reject(undefined) };
    const out = await builder(oneCall(), [tool]).builder.approval(approval).build().runTurn("go");
    assert.equal(out.status, "completed");
    assert.match(toolOutputs(out.messages)[0]!, /^denied: the approval request failed \(undefined\)/);
    assert.equal(tool.effects.length, 0);
  });

  it("with reads approved, an approval-free tool that is not a read still asks no one (harness #8)", async () => {
    const asked: string[] = [];
    const approval: ApprovalPort = {
      request: async (r) => {
        asked.push(r.call.name);
        return approveAll.request(r);
      },
    };
    const tool = new CounterTool({ effectClass: "idempotent_write" });
    await builder(oneCall(), [tool]).builder.approval(approval).approveReads(true).build().runTurn("go");
    assert.deepEqual(asked, []);
    assert.equal(tool.effects.length, 1);
  });

  it("cancelling while a later call awaits approval records it as not run, not as a denial, beside the checkpointed effect (harness #6 #10)", async () => {
    const asked = deferred();
    const approval: ApprovalPort = {
      request: () => {
        asked.resolve();
        return new Promise(() => undefined);
      },
    };
    const model = scripted([
      {
        toolCalls: [
          { name: "counter", arguments: { by: 1 } },
          { name: "write_file", arguments: { by: 2 } },
        ],
      },
    ]);
    const { memory, builder: b } = builder(model, [new CounterTool(), new CounterTool({ name: "write_file", requiresApproval: true })]);
    const ac = new AbortController();
    const turn = b.approval(approval).build().runTurn("go", { signal: ac.signal });
    await asked.promise;
    ac.abort();
    const out = await turn;
    assert.equal(out.status, "cancelled");
    assertStructurallyComplete(memory.history);
    const outputs = toolOutputs(memory.history);
    assert.equal(outputs[0], "counter=1");
    assert.match(outputs[1]!, /^not run: the turn was cancelled/);
  });

  it("a tool that faults keeps its real fault, whatever its cancellation policy and whether the turn was cancelled (harness #21 #22)", async () => {
    // FinishOnceStarted: cancelled mid-effect, then faults; its fault is the result, not "interrupted".
    const started = deferred();
    const ac = new AbortController();
    const sturdy = new CounterTool({
      fault: true,
      hold: () => {
        started.resolve();
        return new Promise((r) => setTimeout(r, 5));
      },
    });
    const first = builder(oneCall(), [sturdy]);
    const turn = first.builder.build().runTurn("go", { signal: ac.signal });
    await started.promise;
    ac.abort();
    await turn;
    assert.equal(toolOutputs(first.memory.history)[0], "failed: tool counter faulted: disk on fire");
    // Interruptible, never cancelled: a plain fault is a fault, not an interruption.
    const interruptible = new CounterTool({ fault: true, cancellation: "Interruptible" });
    const second = builder(oneCall(), [interruptible]);
    const out = await second.builder.build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "tool_fatal");
    assert.equal(toolOutputs(second.memory.history)[0], "failed: tool counter faulted: disk on fire");
  });
  it("issue 22 item 3: each result the harness makes says what it is as a typed kind: claimed, refused by the gate, denied, not run", async () => {
    const controller = new AbortController();
    // Cancelled while it runs: it finishes (FinishOnceStarted), and the call after it never runs.
    const running = new CounterTool({ name: "slow", hold: async () => controller.abort() });
    const model = scripted([
      {
        toolCalls: [
          { name: "nosuch_tool", arguments: {} },
          { name: "asks", arguments: { by: 1 } },
          { name: "counter", arguments: { by: 1 } },
          { name: "slow", arguments: { by: 1 } },
          { name: "counter", arguments: { by: 2 } },
        ],
      },
    ]);
    const tools = [new CounterTool({ name: "asks", requiresApproval: true }), new CounterTool(), running];
    const { memory, builder: b } = builder(model, tools);
    const out = await b.build().runTurn("go", { signal: controller.signal });
    assert.equal(out.status, "cancelled");
    assert.deepEqual(
      memory.history.flatMap((m) => (m.role === "tool" ? [[m.name, m.resultKind]] : [])),
      [
        ["nosuch_tool", "refused"],
        ["asks", "denied"],
        ["counter", "claimed"],
        ["slow", "claimed"],
        ["counter", "not_run"],
      ],
    );
  });
});

// Cancellation: sink failure as a cancellation boundary (harness #18), per-tool cancellation
// policy (#21), started mutations never abandoned (#22), and cancellation winning ties; the helpers
// `untilAborted` / `raceCancellation` answer an abort at once and leave no listener behind.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { describe, it } from "node:test";
import {
  AgentSessionBuilder,
  InMemoryAgentMemory,
  type AgentMemory,
  type ApprovalPort,
  type InvocationClaim,
} from "../../../../sidecar/agent/index.js";
import { raceCancellation, untilAborted } from "../../../../sidecar/agent/cancellation.js";
import {
  AUTHORITY,
  builder,
  CounterTool,
  deferred,
  FnModel,
  scripted,
  assertStructurallyComplete,
} from "../../../support/harnessFixtures.js";

const tick = () => new Promise((r) => setTimeout(r, 2));
const pendingAfter = async (p: Promise<unknown>, ms = 15) => {
  let settled = false;
  void p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((r) => setTimeout(r, ms));
  return !settled;
};

/** A session whose model asks for two counter calls in one batch, then answers "x". */
const twoCounterCalls = (tool: CounterTool) =>
  builder(
    scripted([
      {
        toolCalls: [
          { name: "counter", arguments: { by: 1 } },
          { name: "counter", arguments: { by: 2 } },
        ],
      },
      { text: ["x"] },
    ]),
    [tool],
  );

/** A streaming model that stops on abort but only after its own cleanup: a completion barrier. */
function streamingModel(log: string[]) {
  return new FnModel(async (req, onChunk) => {
    try {
      for (let i = 0; i < 1000; i++) {
        if (req.signal.aborted) throw req.signal.reason;
        onChunk({ type: "answer", text: `t${i} ` });
        await tick();
      }
      return { text: "never", reasoning: "", toolCalls: [], stopReason: "end" };
    } finally {
      log.push(`aborted=${req.signal.aborted}`);
      await tick(); // cleanup the turn must wait for
      log.push("model finished");
    }
  });
}

describe("cancellation", () => {
  it("a failing event sink cancels the model stream and commits nothing (harness #18)", async () => {
    const log: string[] = [];
    const { memory, builder: b } = builder(streamingModel(log), []);
    let deltas = 0;
    const out = await b.build().runTurn("go", {
      onEvent: (e) => {
        if (e.type === "answer_delta" && ++deltas === 3) throw new Error("client gone");
      },
    });
    log.push("turn returned");
    assert.equal(out.status === "failed" && out.failure.kind, "sink_failed");
    assert.match(out.status === "failed" ? out.failure.message : "", /client gone/);
    assert.deepEqual(log, ["aborted=true", "model finished", "turn returned"]);
    assert.deepEqual(memory.history, []);
    assert.equal([...memory.turns.values()][0]!.close!.status, "failed");
  });

  it("a sink failing on a tool call commits neither history nor the new call ids (harness #18)", async () => {
    const tool = new CounterTool();
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["x"] }]), [tool]);
    const session = b.build();
    const out = await session.runTurn("go", {
      onEvent: (e) => {
        if (e.type === "tool_call") throw new Error("pipe closed");
      },
    });
    assert.equal(out.status === "failed" && out.failure.kind, "sink_failed");
    assert.deepEqual([memory.history.length, session.history().length, tool.effects.length], [0, 0, 0]);
  });

  it("cancelling the model stream cancels generation and awaits its completion (harness #18 #22)", async () => {
    const log: string[] = [];
    const { memory, builder: b } = builder(streamingModel(log), []);
    const ac = new AbortController();
    const turn = b.build().runTurn("go", { signal: ac.signal });
    await tick();
    ac.abort();
    const out = await turn;
    log.push("turn returned");
    assert.equal(out.status, "cancelled");
    assert.deepEqual(log, ["aborted=true", "model finished", "turn returned"]);
    assert.deepEqual(memory.history, []);
    assert.equal([...memory.turns.values()][0]!.close!.status, "cancelled");
  });

  it("cancellation wins a tie with a completed model round (harness #18)", async () => {
    const ac = new AbortController();
    const model = new FnModel(async () => {
      ac.abort(); // cancel arrives in the same instant the round completes
      return { text: "finished anyway", reasoning: "", toolCalls: [], stopReason: "end" };
    });
    const { memory, builder: b } = builder(model, []);
    const out = await b.build().runTurn("go", { signal: ac.signal });
    assert.equal(out.status, "cancelled");
    assert.deepEqual(memory.history, []);
  });

  it("cancellation wins a tie with a completed tool; its result stays checkpointed (harness #10 #21)", async () => {
    const ac = new AbortController();
    const tool = new CounterTool({
      hold: async () => {
        ac.abort();
      },
    });
    const { memory, builder: b } = twoCounterCalls(tool);
    const out = await b.build().runTurn("go", { signal: ac.signal });
    assert.equal(out.status, "cancelled");
    assert.equal(tool.effects.length, 1);
    assert.deepEqual(
      memory.history.map((m) => m.role),
      ["user", "assistant", "tool", "tool"],
    );
    const outputs = memory.history.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    assert.deepEqual([outputs[0], /^not run: the turn was cancelled/.test(outputs[1]!)], ["counter=1", true]);
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => e.status),
      ["succeeded"],
    );
  });

  it("FinishOnceStarted: a started tool finishes, the rest of the batch stops (harness #21 #22)", async () => {
    const release = deferred();
    const seen: boolean[] = [];
    const tool = new CounterTool({
      hold: async (signal) => {
        await release.promise;
        seen.push(signal.aborted);
      },
    });
    const { memory, builder: b } = twoCounterCalls(tool);
    const ac = new AbortController();
    const turn = b.build().runTurn("go", { signal: ac.signal });
    await tick();
    ac.abort();
    assert.ok(await pendingAfter(turn), "the turn cannot return while the mutation runs (#22)");
    release.resolve();
    const out = await turn;
    assert.equal(out.status, "cancelled");
    assert.deepEqual(seen, [false], "FinishOnceStarted tools are not interrupted");
    assert.deepEqual(
      tool.effects.map((e) => e.finished),
      [true],
    );
    assertStructurallyComplete(memory.history);
    assert.deepEqual(
      memory.history.flatMap((m) => (m.role === "tool" ? [m.ok] : [])),
      [true, false],
    );
  });

  it("Interruptible: the tool sees cancellation and is still awaited (harness #21 #22)", async () => {
    const stopped: string[] = [];
    const tool = new CounterTool({
      cancellation: "Interruptible",
      hold: (signal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () =>
            setTimeout(() => {
              stopped.push("stopped");
              reject(new Error("interrupted"));
            }, 5),
          ),
        ),
    });
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["x"] }]), [tool]);
    const ac = new AbortController();
    const turn = b.build().runTurn("go", { signal: ac.signal });
    await tick();
    ac.abort();
    const out = await turn;
    assert.deepEqual(stopped, ["stopped"], "the turn returned only after the tool stopped");
    assert.equal(out.status, "cancelled");
    const result = memory.history.find((m) => m.role === "tool");
    assert.match(result?.role === "tool" ? result.output : "", /^cancelled: the tool was interrupted/);
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => e.status),
      ["failed"],
    );
  });

  it("cancellation between prepare and dispatch fails the claim and runs nothing (harness #6 #22)", async () => {
    const ac = new AbortController();
    const memory = new (class extends InMemoryAgentMemory {
      override async recordPrepared(c: InvocationClaim): Promise<void> {
        await super.recordPrepared(c);
        ac.abort(); // the cancel lands after the claim is journaled, before dispatch
      }
    })();
    const racing: AgentMemory = memory;
    const tool = new CounterTool();
    const out = await new AgentSessionBuilder()
      .model(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["x"] }]))
      .tools([tool])
      .memory(racing)
      .authorityInputs(AUTHORITY)
      .build()
      .runTurn("go", { signal: ac.signal });
    assert.equal(out.status, "cancelled");
    assert.deepEqual(
      [...memory.ledger.values()].map((e) => [e.status, e.reason]),
      [["failed", "cancelled before dispatch"]],
    );
    assert.deepEqual([tool.effects.length, memory.history.length], [0, 0]);
  });

  it("cancelling while approval is pending withdraws the question and runs nothing (harness #8 #10)", async () => {
    const withdrawn: boolean[] = [];
    const approval: ApprovalPort = {
      request: (r) => new Promise((_resolve) => r.signal.addEventListener("abort", () => withdrawn.push(true))),
    };
    const tool = new CounterTool({ requiresApproval: true });
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["x"] }]), [tool]);
    const ac = new AbortController();
    const turn = b.approval(approval).build().runTurn("go", { signal: ac.signal });
    await tick();
    ac.abort();
    const out = await turn;
    assert.equal(out.status, "cancelled");
    assert.deepEqual(withdrawn, [true]);
    assert.deepEqual([tool.effects.length, memory.history.length, memory.ledger.size], [0, 0, 0]);
  });
});

describe("cancellation helpers", () => {
  const never = () => new Promise<never>(() => undefined);
  const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;
  const settled = () => new Promise((r) => setImmediate(r));

  it("control plane #13: untilAborted answers a signal already aborted with its reason, without waiting for the work", async () => {
    const ac = new AbortController();
    const reason = new Error("cancelled while the model loads");
    ac.abort(reason);
    await assert.rejects(untilAborted(Promise.resolve("loaded"), ac.signal), (e) => e === reason);
    const waiting = untilAborted(never(), ac.signal);
    assert.equal(await pendingAfter(waiting), false, "a load that never ends does not hold the answer back");
    await assert.rejects(waiting, (e) => e === reason);
  });

  it("control plane #13: untilAborted gives control back at once when the signal aborts mid-work, with the signal's reason", async () => {
    const ac = new AbortController();
    const work = deferred<string>();
    const waiting = untilAborted(work.promise, ac.signal);
    assert.ok(await pendingAfter(waiting, 5), "nothing is answered before the abort");
    const reason = new Error("the run was cancelled");
    ac.abort(reason);
    assert.equal(await pendingAfter(waiting, 5), false, "the abort answers while the work still runs");
    await assert.rejects(waiting, (e) => e === reason);
    work.resolve("loaded later"); // the abandoned work goes on to its end; its result is dropped
    await assert.rejects(waiting, (e) => e === reason);
  });

  it("untilAborted passes the work's own result and error through while the signal stays quiet", async () => {
    const ac = new AbortController();
    assert.equal(await untilAborted(Promise.resolve(7), ac.signal), 7);
    const failure = new Error("load failed");
    await assert.rejects(untilAborted(Promise.reject(failure), ac.signal), (e) => e === failure);
  });

  it("harness #18 #22: untilAborted leaves no abort listener on the run's signal once its work has settled", async () => {
    const ac = new AbortController();
    for (let i = 0; i < 12; i++) await untilAborted(Promise.resolve(i), ac.signal);
    await untilAborted(Promise.reject(new Error("x")), ac.signal).catch(() => undefined);
    await settled();
    assert.equal(abortListeners(ac.signal), 0);
  });

  it("harness #18 #22: raceCancellation leaves no abort listener on the turn's signal once the work has won", async () => {
    const ac = new AbortController();
    for (let i = 0; i < 12; i++) assert.equal(await raceCancellation(Promise.resolve(i), ac.signal), i);
    await raceCancellation(Promise.reject(new Error("x")), ac.signal).catch(() => undefined);
    assert.equal(abortListeners(ac.signal), 0);
  });

  it("harness #18 #22: a finished multi-round turn with tool calls leaves no abort listener on the caller's signal", async () => {
    const tool = new CounterTool();
    const { builder: b } = builder(
      scripted([
        {
          toolCalls: [
            { name: "counter", arguments: { by: 1 } },
            { name: "counter", arguments: { by: 2 } },
          ],
        },
        { toolCalls: [{ name: "counter", arguments: { by: 3 } }] },
        { text: ["done"] },
      ]),
      [tool],
    );
    const ac = new AbortController();
    const out = await b.build().runTurn("go", { signal: ac.signal });
    assert.equal(out.status, "completed");
    assert.equal(tool.effects.length, 3);
    await settled();
    assert.equal(abortListeners(ac.signal), 0, "every round and every call removed what it added");
  });
});

// One model round's cancellation (harness #18): a failing sink aborts the round with its own error,
// is never called again, empty chunks never reach it, and a released round leaves the turn's signal clean.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { describe, it } from "node:test";
import type { ModelChunk } from "../../../../sidecar/agent/ports/model.js";
import { RoundAbort } from "../../../../sidecar/agent/roundAbort.js";
import { builder, FnModel } from "../../../support/harnessFixtures.js";

const answer = (text: string): ModelChunk => ({ type: "answer", text });

describe("RoundAbort", () => {
  it("harness #18: a throwing sink aborts the round with its error, and nothing reaches the sink after it", () => {
    const outer = new AbortController();
    const round = new RoundAbort(outer.signal);
    const seen: string[] = [];
    const gone = new Error("client gone");
    const sink = round.sink((c) => {
      seen.push("text" in c ? c.text : c.type);
      throw seen.length === 1 ? gone : new Error("called again");
    });
    sink(answer("a"));
    sink(answer("b"));
    sink({ type: "reasoning", text: "c" });
    assert.deepEqual(seen, ["a"]);
    assert.equal(round.signal.aborted, true);
    assert.equal(round.signal.reason, gone);
    assert.equal(round.sinkError?.error, gone, "the first failure is the round's error");
    assert.equal(outer.signal.aborted, false, "the caller's signal is not touched");
    round.release();
  });

  it("harness #18: the sink's error, not the engine's abort, is what throwIfSinkFailed rethrows", () => {
    const round = new RoundAbort(new AbortController().signal);
    assert.doesNotThrow(() => round.throwIfSinkFailed(), "a round whose sink never failed has nothing to rethrow");
    const gone = new Error("pipe closed");
    round.sink(() => {
      throw gone;
    })(answer("x"));
    assert.throws(
      () => round.throwIfSinkFailed(),
      (e) => e === gone,
    );
    round.release();
  });

  it("harness #3 #18: empty chunks never reach the sink", () => {
    const round = new RoundAbort(new AbortController().signal);
    const seen: ModelChunk[] = [];
    const sink = round.sink((c) => void seen.push(c));
    sink(answer(""));
    sink({ type: "reasoning", text: "" });
    sink(answer("hi"));
    sink({ type: "reasoning", text: "" });
    assert.deepEqual(seen, [answer("hi")]);
    assert.equal(round.sinkError, null);
    round.release();
  });

  it("harness #18: the caller's abort reaches the engine's signal with its reason until the round is released", () => {
    const outer = new AbortController();
    const round = new RoundAbort(outer.signal);
    const reason = new Error("stop");
    outer.abort(reason);
    assert.equal(round.signal.reason, reason);
    round.release();
  });

  it("harness #18: a released round leaves no abort listener on the caller's signal", () => {
    const outer = new AbortController();
    for (let i = 0; i < 12; i++) new RoundAbort(outer.signal).release();
    assert.equal(getEventListeners(outer.signal, "abort").length, 0);
    const round = new RoundAbort(outer.signal);
    round.release();
    outer.abort(new Error("late"));
    assert.equal(round.signal.aborted, false, "a round already over is not aborted afterwards");
  });

  it("harness #3: a model's empty chunks never become events", async () => {
    const model = new FnModel(async (_req, onChunk) => {
      for (const text of ["", "a", "", "b"]) onChunk({ type: "answer", text });
      onChunk({ type: "reasoning", text: "" });
      return { text: "ab", reasoning: "", toolCalls: [], stopReason: "end" };
    });
    const events: { type: string; text?: string }[] = [];
    const out = await builder(model, [])
      .builder.build()
      .runTurn("go", { onEvent: (e) => void events.push(e) });
    assert.equal(out.status, "completed");
    assert.deepEqual(
      events.filter((e) => e.type === "answer_delta" || e.type === "reasoning_delta"),
      [
        { type: "answer_delta", text: "a" },
        { type: "answer_delta", text: "b" },
      ],
    );
  });
});

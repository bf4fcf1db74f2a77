// One model round (harness #3, #18): prefix reconciliation, sink failures however the model reacts to them,
// and the round's hold on the turn's signal; added after a mutation run of modelRound.ts (docs/mutation.md).
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../../sidecar/agent/index.js";
import { runModelRound } from "../../../../sidecar/agent/modelRound.js";
import type { ModelChunk, ModelRound } from "../../../../sidecar/agent/ports/model.js";
import { TurnFailed } from "../../../../sidecar/agent/turnOutcome.js";
import { builder, FnModel } from "../../../support/harnessFixtures.js";

const REQUEST = { sessionKey: "s", messages: [{ role: "user" as const, text: "hi" }], tools: [], options: {} };
const round = (text: string, reasoning = ""): ModelRound => ({ text, reasoning, toolCalls: [], stopReason: "end" });
/** A model that streams `chunks`, ignores any abort (it "swallows" the sink's failure), and returns `result`. */
const streaming = (chunks: ModelChunk[], result: ModelRound) =>
  new FnModel(async (_req, onChunk) => {
    for (const c of chunks) onChunk(c);
    return result;
  });
const run = (model: FnModel, emit: (e: AgentEvent) => void, signal = new AbortController().signal) =>
  runModelRound(model, REQUEST, signal, emit);
const sinkFailedWith = (cause: unknown) => (e: unknown) => e instanceof TurnFailed && e.kind === "sink_failed" && e.cause === cause;

describe("model round", () => {
  it("harness #18: a sink failure fails the round even when the model swallows it and returns a complete response", async () => {
    const gone = new Error("client gone");
    let aborted = false;
    const model = new FnModel(async (req, onChunk) => {
      onChunk({ type: "answer", text: "done" });
      aborted = req.signal.aborted;
      return round("done"); // fully streamed: no suffix left to emit
    });
    await assert.rejects(
      run(model, () => {
        throw gone;
      }),
      sinkFailedWith(gone),
    );
    assert.ok(aborted, "the sink's failure aborted the model's signal");
  });

  it("harness #3 #18: a sink that fails on the terminal suffix fails the round as sink_failed", async () => {
    const gone = new Error("client gone");
    const seen: AgentEvent[] = [];
    await assert.rejects(
      run(streaming([], round("hi")), (e) => {
        seen.push(e);
        throw gone;
      }),
      sinkFailedWith(gone),
    );
    assert.deepEqual(seen, [{ type: "answer_delta", text: "hi" }]);
  });

  it("harness #18: whatever the sink throws, even a TurnFailed of another kind, the round fails as sink_failed with it as the cause", async () => {
    const odd = new TurnFailed("tool_fatal", "not the sink's kind");
    for (const chunks of [[{ type: "answer" as const, text: "hi" }], []]) {
      await assert.rejects(
        run(streaming(chunks, round("hi")), () => {
          throw odd;
        }),
        sinkFailedWith(odd),
        chunks.length > 0 ? "while streaming" : "on the suffix",
      );
    }
  });

  it("harness #18: a sink failure in a turn is reported once, with the sink's own error as its cause", async () => {
    const gone = new Error("client gone");
    const model = streaming([{ type: "answer", text: "do" }], round("done"));
    const out = await builder(model, [])
      .builder.build()
      .runTurn("go", {
        onEvent: (e) => {
          if (e.type === "answer_delta") throw gone;
        },
      });
    assert.equal(out.status, "failed");
    if (out.status !== "failed") return;
    assert.equal(out.failure.kind, "sink_failed");
    assert.equal(out.failure.cause, gone, "not a sink failure wrapping another");
    assert.equal(out.failure.message, "the event sink failed: client gone");
  });

  it("harness #3: only a missing suffix is emitted: a fully streamed round adds no empty delta", async () => {
    const events: AgentEvent[] = [];
    const model = streaming(
      [
        { type: "reasoning", text: "hm" },
        { type: "answer", text: "Hel" },
        { type: "answer", text: "lo" },
      ],
      round("Hello", "hm"),
    );
    const result = await run(model, (e) => void events.push(e));
    assert.equal(result.text, "Hello");
    assert.deepEqual(events, [
      { type: "reasoning_delta", text: "hm" },
      { type: "answer_delta", text: "Hel" },
      { type: "answer_delta", text: "lo" },
    ]);
  });

  it("harness #3: a non-prefix stream fails as non_prefix and says which field diverged", async () => {
    for (const field of ["answer", "reasoning"] as const) {
      const other = field === "answer" ? "reasoning" : "answer";
      const model = streaming([{ type: field, text: "abc" }], field === "answer" ? round("xyz") : round("", "xyz"));
      await assert.rejects(
        run(model, () => undefined),
        (e: unknown) =>
          e instanceof TurnFailed &&
          e.kind === "non_prefix" &&
          e.message.includes(`streamed ${field} text`) &&
          !e.message.includes(other) &&
          /the turn was failed rather than commit text nobody saw/.test(e.message),
        field,
      );
    }
  });

  it("harness #3 #10: a round that breaks the port's shape is a harness fault, not a non-prefix stream", async () => {
    // An adapter bug: a terminal round without its reasoning string.
    const model = new FnModel(async () => ({ text: "ok", toolCalls: [], stopReason: "end" }) as unknown as ModelRound);
    await assert.rejects(
      run(model, () => undefined),
      TypeError,
    );
    const out = await builder(model, []).builder.build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "internal_error");
  });

  it("harness #18: a round leaves no abort listener on the turn's signal, however it ends", async () => {
    const turn = new AbortController();
    const listeners = () => getEventListeners(turn.signal, "abort").length;
    await run(streaming([{ type: "answer", text: "a" }], round("ab")), () => undefined, turn.signal);
    assert.equal(listeners(), 0, "after a completed round");
    const failing = new FnModel(async () => {
      throw new Error("server 500");
    });
    await assert.rejects(
      run(failing, () => undefined, turn.signal),
      (e: unknown) => e instanceof TurnFailed && e.kind === "model_failed",
    );
    assert.equal(listeners(), 0, "after a failed round");
    await assert.rejects(
      run(
        streaming([{ type: "answer", text: "a" }], round("a")),
        () => {
          throw new Error("gone");
        },
        turn.signal,
      ),
      (e: unknown) => e instanceof TurnFailed && e.kind === "sink_failed",
    );
    assert.equal(listeners(), 0, "after a sink failure");
  });
});

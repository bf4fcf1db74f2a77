// Prefix reconciliation of streamed deltas, as a property over random streams (harness #3).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DeltaReconciler, NonPrefixDelta } from "../../../../sidecar/agent/deltaReconciler.js";
import { builder, collect, FnModel } from "../../../support/harnessFixtures.js";

/** A terminal text, cut into deltas, of which only the first `streamed` are sent before the end. */
const stream = fc.string({ unit: "grapheme", maxLength: 60 }).chain((text) =>
  fc.tuple(fc.constant(text), fc.uniqueArray(fc.integer({ min: 0, max: text.length }), { maxLength: 8 })).chain(([t, cuts]) => {
    const points = [0, ...cuts.sort((a, b) => a - b), t.length];
    const parts = points.slice(1).map((p, i) => t.slice(points[i], p));
    return fc.tuple(fc.constant(t), fc.constant(parts), fc.integer({ min: 0, max: parts.length }));
  }),
);

describe("delta reconciliation", () => {
  it("presentation concatenation equals the terminal text for any prefix stream (harness #3, property)", () => {
    fc.assert(
      fc.property(stream, ([terminal, parts, streamed]) => {
        const r = new DeltaReconciler("answer");
        const shown = parts
          .slice(0, streamed)
          .map((p) => r.push(p))
          .join("");
        assert.equal(shown + r.finish(terminal), terminal);
      }),
    );
  });

  it("fails whenever the streamed text is not a prefix of the terminal text (harness #3, property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 5 }), { maxLength: 6 }), fc.string({ maxLength: 20 }), (deltas, terminal) => {
        const r = new DeltaReconciler("reasoning");
        deltas.forEach((d) => {
          r.push(d);
        });
        const joined = deltas.join("");
        if (terminal.startsWith(joined)) assert.equal(joined + r.finish(terminal), terminal);
        else assert.throws(() => r.finish(terminal), NonPrefixDelta);
      }),
    );
  });

  it("the turn presents exactly the committed answer and reasoning for any stream (harness #3, property)", async () => {
    await fc.assert(
      fc.asyncProperty(stream, stream, async ([answer, aParts, aStreamed], [reasoning, rParts, rStreamed]) => {
        const model = new FnModel(async (_r, onChunk) => {
          rParts.slice(0, rStreamed).forEach((text) => {
            onChunk({ type: "reasoning", text });
          });
          aParts.slice(0, aStreamed).forEach((text) => {
            onChunk({ type: "answer", text });
          });
          return { text: answer || "x", reasoning, toolCalls: [], stopReason: "end" };
        });
        const sink = collect();
        const out = await builder(model, []).builder.build().runTurn("go", { onEvent: sink.onEvent });
        const committed = out.messages[1];
        if (answer === "") return; // an empty answer would fail #3's "only a terminal response with text"; covered elsewhere
        assert.equal(committed?.role === "assistant" && committed.text, sink.answer());
        assert.equal(sink.reasoning(), reasoning);
      }),
      { numRuns: 60 },
    );
  });
});

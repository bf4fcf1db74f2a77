// turn/event coalescing is lossless and ordered (issue 4: coalesced deltas; harness #18).
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import type { TurnEvent } from "../../../../../shared/protocol/index.js";
import { EventCoalescer } from "../../../../../sidecar/kernel/turns/eventCoalescer.js";

const eventArb: fc.Arbitrary<TurnEvent> = fc.oneof(
  fc.string({ maxLength: 5 }).map((text) => ({ type: "answer_delta" as const, text })),
  fc.string({ maxLength: 5 }).map((text) => ({ type: "reasoning_delta" as const, text })),
  fc.constant({ type: "status" as const, status: "running" as const }),
);

it("coalesced deltas concatenate to exactly what was pushed, per kind, in order, with dense seq (harness #18)", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 60 }), (events) => {
      const sent: { seq: number; event: TurnEvent }[] = [];
      const c = new EventCoalescer((seq, event) => sent.push({ seq, event }), 1_000_000);
      for (const e of events) c.push(e);
      c.flush();
      const text = (evs: TurnEvent[], type: string) =>
        evs
          .filter((e) => e.type === type)
          .map((e) => (e as { text: string }).text)
          .join("");
      assert.equal(
        text(
          sent.map((s) => s.event),
          "answer_delta",
        ),
        text(events, "answer_delta"),
      );
      assert.equal(
        text(
          sent.map((s) => s.event),
          "reasoning_delta",
        ),
        text(events, "reasoning_delta"),
      );
      assert.deepEqual(
        sent.map((s) => s.seq),
        sent.map((_, i) => i),
      );
      // Non-delta events keep their position relative to the deltas around them.
      const shape = (evs: TurnEvent[]) =>
        evs
          .filter((e) => !("text" in e) || e.text !== "")
          .map((e) => e.type)
          .filter((t, i, a) => t !== a[i - 1] || t === "status");
      assert.deepEqual(shape(sent.map((s) => s.event)), shape(events));
      // Within one (here endless) window only the leading edge, the first delta, goes out alone.
      const firstDelta = sent.findIndex((s) => s.event.type !== "status");
      for (let i = 1; i < sent.length; i++) {
        const a = sent[i - 1]!.event,
          b = sent[i]!.event;
        assert.ok(!(a.type === b.type && a.type !== "status") || i - 1 === firstDelta, "two adjacent deltas of one kind were not merged");
      }
    }),
  );
});

it("the first delta goes out at once; a burst behind it within the window becomes one notification", async () => {
  const sent: TurnEvent[] = [];
  const c = new EventCoalescer((_seq, e) => sent.push(e), 20);
  for (const t of ["a", "b", "c", "d"]) c.push({ type: "answer_delta", text: t });
  // The first token is not held for a window: it is what first-token latency measures.
  assert.deepEqual(sent, [{ type: "answer_delta", text: "a" }]);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(sent, [
    { type: "answer_delta", text: "a" },
    { type: "answer_delta", text: "bcd" },
  ]);
  // After a quiet window the next delta is a leading edge again. The window counts from the flush,
  // which a loaded machine can fire late: wait a whole quiet window after it, not from the burst.
  await new Promise((r) => setTimeout(r, 60));
  c.push({ type: "answer_delta", text: "e" });
  assert.equal(sent.length, 3);
});

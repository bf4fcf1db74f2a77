// One tool batch's results and claims (harness #6): added with the mutation run of toolBatch.ts
// (docs/mutation.md), which found a tool fault that was no Error recorded as `not run`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertStructurallyComplete, builder, CounterTool, scripted } from "../../../support/harnessFixtures.js";

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
});

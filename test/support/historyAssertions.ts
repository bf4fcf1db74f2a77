import assert from "node:assert/strict";
import type { HistoryMessage } from "../../shared/protocol/index.js";

/** Every assistant call is followed by exactly its results, in order (spec 000 #6). */
export function assertCompleteBatches(messages: HistoryMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    m.toolCalls.forEach((call, k) => {
      const r = messages[i + 1 + k];
      assert.ok(r && r.role === "tool" && r.callId === call.callId, `call ${call.callId} lacks its result at ${i + 1 + k}`);
    });
  }
}

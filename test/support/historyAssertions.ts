import assert from "node:assert/strict";
import { MAX_REASON_CHARS } from "../../shared/boundedText.js";
import type { HistoryMessage } from "../../shared/protocol/index.js";

/** Every assistant call is followed by exactly its results, in order (harness #6). */
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

/** True when `text` is a valid bounded single-line reason (harness #8). */
export function isBoundedReason(text: string, max = MAX_REASON_CHARS): boolean {
  return text.length > 0 && text.length <= max && !/[\r\n\u2028\u2029]/.test(text) && text.trim() === text;
}

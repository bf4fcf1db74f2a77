// What the chat view is sent for a session's history (issue 15, issue 24): each call's ledger state and
// who decided its approval, the last decision of a call being the one that held.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { RequestResult } from "../../../../shared/protocol/index.js";
import { transcriptMessage } from "../../../../extension/chat/transcriptMessage.js";

const turnId = "0190d3c3-0000-7000-8000-000000000001";
const call = (callId: string) => ({ callId, status: "succeeded", reason: null });
const decision = (callId: string, d: "approve" | "deny", surface: "card" | "lens", decidedAt: string) => ({
  turnId,
  callId,
  tool: "shell",
  inputHash: "h",
  decision: d,
  reason: "r",
  decidedBy: { kind: "window" as const, clientId: "w" },
  surface,
  decidedAt,
});

it("carries each call's ledger state and its last approval decision; a call nobody was asked about has none (issue 24)", () => {
  const history = {
    session: { sessionId: "0190d3c3-0000-7000-8000-0000000000aa" },
    messages: [],
    condensations: [],
    runs: [{ turnId, ledger: [call("c1"), call("c2")] }],
    decisions: [decision("c1", "deny", "card", "2026-12-01T10:00:00Z"), decision("c1", "approve", "lens", "2026-12-01T10:01:00Z")],
  } as unknown as RequestResult<"session/history">;
  const calls = transcriptMessage(history).calls ?? {};
  assert.deepEqual(calls.c1, {
    status: "succeeded",
    reason: null,
    decision: { decision: "approve", decidedBy: { kind: "window", clientId: "w" }, surface: "lens", decidedAt: "2026-12-01T10:01:00Z" },
  });
  assert.deepEqual(calls.c2, { status: "succeeded", reason: null });
});

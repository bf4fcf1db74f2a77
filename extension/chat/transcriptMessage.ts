// A session's history as the chat view shows it (issue 15): its messages, its title and model, the
// condensations that mark what the model sees instead (issue 13), and each call's ledger state and
// approval decision.
import type { RequestResult } from "../../shared/protocol/index.js";
import type { HistoryMessage } from "../../shared/protocol/records.js";
import type { CallStates, ToWebview } from "../../shared/protocol/webview.js";

type History = RequestResult<"session/history">;

export function transcriptMessage(
  history: History,
  messages: HistoryMessage[] = history.messages,
): Extract<ToWebview, { type: "chat/transcript" }> {
  const calls: CallStates = {};
  for (const run of history.runs) for (const row of run.ledger) calls[row.callId] = { status: row.status, reason: row.reason };
  // issue 24: who decided each approval, where and when; the last decision of a call is the one that held.
  for (const d of history.decisions ?? []) {
    const call = calls[d.callId];
    if (call) call.decision = { decision: d.decision, decidedBy: d.decidedBy, surface: d.surface, decidedAt: d.decidedAt };
  }
  return {
    type: "chat/transcript",
    sessionId: history.session.sessionId,
    messages,
    session: history.session,
    condensations: history.condensations,
    calls,
  };
}

// A session's history as the chat view shows it (issue 15): its messages, its title and model, the
// condensations that mark what the model sees instead (issue 13), and each call's ledger state and
// approval decision, and how runs ended that did more than complete (issue 25 item 11); a long one a
// page at a time, latest first (issue 26 item 4).
import type { RequestResult } from "../../shared/protocol/index.js";
import type { HistoryMessage } from "../../shared/protocol/records.js";
import type { CallStates, RunEndings, ToWebview } from "../../shared/protocol/webview.js";

type History = RequestResult<"session/history">;

/** How many messages a page of history holds: the view opens a chat at its latest page (issue 26 item 4). */
export const HISTORY_PAGE_MESSAGES = 200;

export function transcriptMessage(
  history: History,
  messages: HistoryMessage[] = history.messages,
): Extract<ToWebview, { type: "chat/transcript" }> {
  return {
    type: "chat/transcript",
    sessionId: history.session.sessionId,
    messages,
    session: history.session,
    condensations: history.condensations,
    calls: callStates(history),
    endings: runEndings(history),
    ...(history.hasOlder ? { hasOlder: true } : {}),
  };
}

/** An older page for the view, cut to whole turns (see wholeTurns). */
export function olderPageMessage(history: History): Extract<ToWebview, { type: "chat/older" }> {
  return {
    type: "chat/older",
    sessionId: history.session.sessionId,
    messages: history.messages,
    calls: callStates(history),
    endings: runEndings(history),
    hasOlder: history.hasOlder ?? false,
  };
}

/**
 * A page that begins inside a turn starts at its next user message instead: the messages before it go
 * with the older page, so a reply is never split across two pages. A turn longer than a page is kept
 * as it is (its first messages then come with the older page).
 */
export function wholeTurns(history: History): History {
  if (!history.hasOlder) return history;
  const first = history.messages.findIndex((m) => m.role === "user");
  return first > 0 ? { ...history, messages: history.messages.slice(first) } : history;
}

function callStates(history: History): CallStates {
  const calls: CallStates = {};
  for (const run of history.runs) for (const row of run.ledger) calls[row.callId] = { status: row.status, reason: row.reason };
  // issue 24: who decided each approval, where and when; the last decision of a call is the one that held.
  for (const d of history.decisions ?? []) {
    const call = calls[d.callId];
    if (call) call.decision = { decision: d.decision, decidedBy: d.decidedBy, surface: d.surface, decidedAt: d.decidedAt };
  }
  return calls;
}

/** Each ended run's ending after its last message (a run with no message left has nothing to sit after). */
function runEndings(history: History): RunEndings {
  const endings: RunEndings = {};
  for (const run of history.runs) if (run.ending && run.lastSeq !== undefined) endings[String(run.lastSeq)] = run.ending;
  return endings;
}

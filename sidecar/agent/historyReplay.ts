// harness #7, #16: strict replay of committed history into the builder. A history the harness
// could not have committed (a dangling call, a result for another call, a reused or foreign id, a
// call to a tool outside the ceiling answered by anything but the gate's refusal, a system message
// not at the start) is refused. A model may call a name the session never had: the gate refuses it
// with a typed "refused" result and the harness commits both, so that history replays (issue 23 item 6).
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";
import type { AgentMessage } from "./messages.js";
import type { CallIdRegistry } from "./callIds.js";

export function replayHistory(history: readonly AgentMessage[], ceiling: ReadonlySet<string>, ids: CallIdRegistry): void {
  const fail = (index: number, why: string): never => {
    throw new HearthError(
      ErrorCode.Conflict,
      `refused to resume: history message ${index} ${why}; the journal does not hold a history this harness committed`,
    );
  };
  let pending: { callId: string; name: string; outside: boolean; at: number }[] = [];
  history.forEach((m, i) => {
    if (m.role === "system" && i !== 0) fail(i, "is a system message after the start");
    if (pending.length > 0 && m.role !== "tool") fail(i, `arrives before the result of call ${pending[0]!.callId}`);
    if (m.role === "assistant") {
      for (const call of m.toolCalls) {
        try {
          ids.adopt(call.callId);
        } catch (e) {
          fail(i, errorMessage(e));
        }
      }
      pending = m.toolCalls.map((c) => ({ callId: c.callId, name: c.name, outside: !ceiling.has(c.name), at: i }));
    } else if (m.role === "tool") {
      const expected = pending.shift();
      if (!expected || expected.callId !== m.callId || expected.name !== m.name) {
        return fail(
          i,
          `is a result for ${m.callId} (${m.name}) where ${expected ? `${expected.callId} (${expected.name})` : "no call"} was due`,
        );
      }
      if (expected.outside && !(m.resultKind === "refused" && !m.ok))
        fail(
          expected.at,
          `calls tool ${JSON.stringify(m.name)}, outside this session's tool ceiling, and its result is not the gate's refusal`,
        );
    }
  });
  if (pending.length > 0) fail(history.length, `is missing: call ${pending[0]!.callId} has no result`);
}

/** Names of tools called anywhere in `messages`: their definitions stay advertised (harness #5). */
export function calledToolNames(messages: readonly AgentMessage[], into = new Set<string>()): Set<string> {
  for (const m of messages) if (m.role === "assistant") for (const c of m.toolCalls) into.add(c.name);
  return into;
}

// harness #7, #16: strict replay of committed history into the builder. A history the harness
// could not have committed (a dangling call, a result for another call, a reused or foreign id, a
// call to a tool outside the ceiling, a system message not at the start) is refused.
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
  let pending: { callId: string; name: string }[] = [];
  history.forEach((m, i) => {
    if (m.role === "system" && i !== 0) fail(i, "is a system message after the start");
    if (pending.length > 0 && m.role !== "tool") fail(i, `arrives before the result of call ${pending[0]!.callId}`);
    if (m.role === "assistant") {
      for (const call of m.toolCalls) {
        if (!ceiling.has(call.name)) fail(i, `calls tool ${JSON.stringify(call.name)}, outside this session's tool ceiling`);
        try {
          ids.adopt(call.callId);
        } catch (e) {
          fail(i, errorMessage(e));
        }
      }
      pending = m.toolCalls.map((c) => ({ callId: c.callId, name: c.name }));
    } else if (m.role === "tool") {
      const expected = pending.shift();
      if (!expected || expected.callId !== m.callId || expected.name !== m.name) {
        fail(i, `is a result for ${m.callId} (${m.name}) where ${expected ? `${expected.callId} (${expected.name})` : "no call"} was due`);
      }
    }
  });
  if (pending.length > 0) fail(history.length, `is missing: call ${pending[0]!.callId} has no result`);
}

/** Names of tools called anywhere in `messages`: their definitions stay advertised (harness #5). */
export function calledToolNames(messages: readonly AgentMessage[], into = new Set<string>()): Set<string> {
  for (const m of messages) if (m.role === "assistant") for (const c of m.toolCalls) into.add(c.name);
  return into;
}

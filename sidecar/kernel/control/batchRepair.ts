// Restores tool batches that a crash cut off before they were committed (harness #6, #10;
// control plane #12: silence is never success). A dispatched call whose result never reached the journal is
// appended to its session's history as the call plus an explicit `outcome_unknown` result, so the
// history stays structurally complete, the model and the user see what may have happened, and
// nothing is re-run. Idempotent: a call already in history is never appended again.
// Only what may have had an effect is repaired (harness #10, #13; issue 23 item 7): a run none of
// whose missing calls was ever dispatched (a refused proposal, a cancel between prepare and dispatch,
// a loop-guard stop on effect-free calls, a crash before dispatch) was rolled back to its entry
// cursor, as the harness itself rolls it back; putting its calls back would show the model a turn
// that, by the harness's rules, never happened.
import type { Db } from "../../journal/journal.js";
import { appendComplete, type NewMessage } from "./conversation.js";
import { appendEvent } from "./transition.js";

interface OrphanCall {
  session_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  status: "failed" | "outcome_unknown";
  input_json: string | null;
  /** 1 when the claim was dispatched (outcome_unknown, or a `tool.dispatched` event): its effect may have happened. */
  dispatched: 0 | 1;
}

function resultText(call: OrphanCall): string {
  return call.status === "outcome_unknown"
    ? `outcome unknown: the kernel stopped while \`${call.tool}\` was running, so its effects may or may not have happened. ` +
        "It was not re-run; check the workspace before trying it again."
    : `not run: the kernel stopped before \`${call.tool}\` was dispatched; nothing happened.`;
}

/**
 * Calls of finished runs that the ledger knows and the conversation journal does not. One anti-join:
 * the call ids in the candidate sessions' history are gathered once (SQLite indexes them on the fly),
 * not rescanned per call, so the cost is linear in the history, not calls × history.
 */
function orphanCalls(db: Db): OrphanCall[] {
  return db
    .prepare(`
    WITH candidates AS MATERIALIZED (
      SELECT r.session_id, t.run_id, t.call_id, t.tool, t.status, t.input_json, t.created_at,
        (t.status = 'outcome_unknown'
          OR EXISTS (SELECT 1 FROM events e WHERE e.entity_id = t.invocation_id AND e.type = 'tool.dispatched')) AS dispatched
      FROM tool_invocations t JOIN runs r ON r.run_id = t.run_id
      WHERE r.status <> 'active' AND t.status IN ('failed', 'outcome_unknown') AND t.input_json IS NOT NULL),
    issued AS MATERIALIZED (
      SELECT c.session_id, json_extract(j.value, '$.callId') AS call_id
      FROM conversation_journal c, json_each(c.body_json, '$.toolCalls') j
      WHERE c.role = 'assistant' AND c.session_id IN (SELECT session_id FROM candidates))
    SELECT session_id, run_id, call_id, tool, status, input_json, dispatched FROM candidates k
    WHERE NOT EXISTS (SELECT 1 FROM issued i WHERE i.session_id = k.session_id AND i.call_id = k.call_id)
    ORDER BY session_id, run_id, created_at, call_id`)
    .all() as OrphanCall[];
}

export function repairInterruptedBatches(db: Db, at: string): number {
  const byRun = new Map<string, OrphanCall[]>();
  for (const call of orphanCalls(db)) byRun.set(call.run_id, [...(byRun.get(call.run_id) ?? []), call]);
  const mayHaveHadEffects = [...byRun].filter(([, calls]) => calls.some((c) => c.dispatched === 1));
  for (const [runId, calls] of mayHaveHadEffects) {
    const sessionId = calls[0]!.session_id;
    const messages: NewMessage[] = [
      {
        role: "assistant",
        text: "",
        toolCalls: calls.map((c) => ({ callId: c.call_id, name: c.tool, arguments: JSON.parse(c.input_json!) as Record<string, unknown> })),
      },
      ...calls.map(
        (c): NewMessage => ({
          role: "tool",
          callId: c.call_id,
          name: c.tool,
          ok: false,
          output: resultText(c),
          resultKind: "claimed", // each answers its ledger claim (failed or outcome_unknown)
        }),
      ),
    ];
    appendComplete(db, sessionId, runId, messages);
    appendEvent(
      db,
      {
        entityKind: "run",
        entityId: runId,
        sessionId,
        runId,
        type: "journal.batch_repaired",
        payload: { calls: calls.map((c) => c.call_id) },
      },
      at,
    );
  }
  return mayHaveHadEffects.length;
}

// The batch repair as it was before it was set-based (the code at 2c54811^, sidecar/kernel/control/
// batchRepair.ts): every cut-off run is appended to its session's history on its own through
// appendComplete, the function a turn commits with, and files its own event. Kept as the oracle
// the set-based repair is held to (reconcile.equivalence.test.ts): the same crash, reconciled both
// ways, must leave the same journal.
import type { Db, Journal } from "../../sidecar/journal/journal.js";
import { appendComplete, type NewMessage } from "../../sidecar/kernel/control/conversation.js";
import { closeInFlight } from "../../sidecar/kernel/control/reconcile.js";
import { appendEvent, nowIso } from "../../sidecar/kernel/control/transition.js";

interface OrphanCall {
  session_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  status: "failed" | "outcome_unknown";
  input_json: string;
  /** 1 when the claim was dispatched (outcome_unknown, or a `tool.dispatched` event): its effect may have happened. */
  dispatched: 0 | 1;
}

function resultText(call: OrphanCall): string {
  return call.status === "outcome_unknown"
    ? `outcome unknown: the kernel stopped while \`${call.tool}\` was running, so its effects may or may not have happened. ` +
        "It was not re-run; check the workspace before trying it again."
    : `not run: the kernel stopped before \`${call.tool}\` was dispatched; nothing happened.`;
}

/** Calls of finished runs that the ledger knows and the conversation journal does not, in the whole ledger. */
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

function repairRunByRun(db: Db, at: string): number {
  const byRun = new Map<string, OrphanCall[]>();
  for (const call of orphanCalls(db)) byRun.set(call.run_id, [...(byRun.get(call.run_id) ?? []), call]);
  const mayHaveHadEffects = [...byRun].filter(([, calls]) => calls.some((c) => c.dispatched === 1));
  for (const [runId, calls] of mayHaveHadEffects) {
    const sessionId = calls[0]!.session_id;
    const messages: NewMessage[] = [
      {
        role: "assistant",
        text: "",
        toolCalls: calls.map((c) => ({ callId: c.call_id, name: c.tool, arguments: JSON.parse(c.input_json) as Record<string, unknown> })),
      },
      ...calls.map(
        (c): NewMessage => ({ role: "tool", callId: c.call_id, name: c.tool, ok: false, output: resultText(c), resultKind: "claimed" }),
      ),
    ];
    appendComplete(db, sessionId, runId, messages);
    appendEvent(
      db,
      {
        entityKind: "run",
        entityId: runId,
        sessionId,
        turnId: runId,
        type: "journal.batch_repaired",
        payload: { calls: calls.map((c) => c.call_id) },
      },
      at,
    );
  }
  return mayHaveHadEffects.length;
}

/** Startup reconciliation with the per-run batch repair: the same closing phase, then run by run. */
export function reconcileRunByRun(journal: Journal): number {
  return journal.withTransaction(
    (db) => {
      const at = nowIso();
      closeInFlight(db, at);
      return repairRunByRun(db, at);
    },
    { durable: true },
  );
}

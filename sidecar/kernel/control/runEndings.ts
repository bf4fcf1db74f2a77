// How a run ended, kept for the views (issue 25 item 11): a reloaded chat shows the cancel, the
// failure or the cut-off answer where the live one did, with the answer text the person saw stream
// that no journaled message holds. Presentation only (harness #18): nothing reads it into a request.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { RunEnding } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";
import { ownedTurn, type KernelScope } from "./scope.js";

/** The most of an unfinished answer a run keeps: a view shows it whole, the journal stays bounded. */
export const MAX_UNFINISHED_ANSWER_CHARS = 32_000;

/** Records a terminal run's ending (once its terminal state is written; a later record replaces it). */
export function recordRunEnding(db: Db, scope: KernelScope, turnId: string, ending: RunEnding): void {
  const run = ownedTurn(db, scope, turnId);
  if (run.status === "active")
    throw new HearthError(ErrorCode.Conflict, `refused: run ${turnId} is still active; its ending is recorded once it has ended`);
  const bounded = RunEnding.parse({
    ...ending,
    ...(ending.unfinishedAnswer !== undefined ? { unfinishedAnswer: ending.unfinishedAnswer.slice(0, MAX_UNFINISHED_ANSWER_CHARS) } : {}),
  });
  db.prepare(`UPDATE runs SET ending_json = ? WHERE run_id = ?`).run(JSON.stringify(bounded), turnId);
}

/**
 * The ending a view shows: the recorded one, else what the run's status and reason say (a run that
 * ended before endings were recorded, or one that reconciliation closed after a crash).
 */
export function runEnding(row: { status: string; reason: string | null; ending_json: string | null }): RunEnding | undefined {
  if (row.ending_json) {
    const parsed = RunEnding.safeParse(JSON.parse(row.ending_json));
    if (parsed.success) return parsed.data;
  }
  if (row.status !== "failed" && row.status !== "cancelled") return undefined;
  return { status: row.status, ...(row.reason ? { message: row.reason } : {}) };
}

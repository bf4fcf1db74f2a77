// Issue 25 item 2: a session whose tools changed since its pin (harness #19) goes on with the tools it
// was pinned with when the person asks for it. The request is an event of the session, so every later
// build of it (this kernel's, a restarted one's) takes its tools from the kernel's whole set by these
// names, not from the kernel's offered ones; other sessions are untouched. keepTools.ts decides.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Db } from "../../journal/journal.js";
import { appendEvent } from "./transition.js";
import { activeRunOf } from "./turns.js";

const KEPT = "session.tools_kept";

/** The tools the session was last asked to keep, sorted; null when it follows the kernel's offered tools. */
export function keptTools(db: Db, sessionId: string): string[] | null {
  const row = db
    .prepare(`SELECT payload_json FROM events WHERE entity_id = ? AND type = ? ORDER BY event_seq DESC LIMIT 1`)
    .get(sessionId, KEPT) as { payload_json: string } | undefined;
  return row ? (JSON.parse(row.payload_json) as { tools: string[] }).tools : null;
}

/** Journals the request; refused while a run of the session is active (its build may be under way). */
export function recordKeptTools(db: Db, sessionId: string, tools: readonly string[], readOnly: boolean): void {
  const active = activeRunOf(db, sessionId);
  if (active)
    throw new HearthError(
      ErrorCode.Conflict,
      `refused to keep the session's earlier tools: its run ${active} is active; ask again once the run has finished`,
    );
  appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: KEPT, payload: { tools: [...tools], readOnly } });
}

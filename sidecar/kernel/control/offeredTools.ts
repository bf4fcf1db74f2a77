// issue 27, item 2: the journal shows, per run, the mode it ran in and the tools its model was
// offered (the active subset inside the session's ceiling, harness #5), recorded when its harness
// is built. A resumed run is built again and records again: each build's offer is on file.
import type { Db } from "../../journal/journal.js";
import { appendEvent } from "./transition.js";

export const TOOLS_OFFERED_EVENT = "run.tools_offered";

export interface ToolsOffered {
  mode: string;
  /** "built-in" or the workspace file the mode was read from. */
  modeSource: string;
  tools: string[];
}

export function recordToolsOffered(db: Db, run: { session_id: string; run_id: string }, offered: ToolsOffered): void {
  appendEvent(db, {
    entityKind: "run",
    entityId: run.run_id,
    sessionId: run.session_id,
    turnId: run.run_id,
    type: TOOLS_OFFERED_EVENT,
    payload: { ...offered },
  });
}

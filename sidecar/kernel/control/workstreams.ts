// control plane #4: workstream identity is the task-work boundary. Each background task gets its own
// workstream (tasks.ts); its id is shown with the task (TaskSummary.workstreamId).
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import type { KernelScope } from "./scope.js";
import { appendEvent, nowIso } from "./transition.js";

export function createWorkstream(db: Db, scope: KernelScope, title: string): string {
  const id = uuidv7();
  const at = nowIso();
  db.prepare(`INSERT INTO workstreams (workstream_id, owner_id, workspace, title, created_at) VALUES (?,?,?,?,?)`).run(
    id,
    scope.ownerId,
    scope.workspace,
    title,
    at,
  );
  appendEvent(db, { entityKind: "workstream", entityId: id, type: "workstream.created" }, at);
  return id;
}

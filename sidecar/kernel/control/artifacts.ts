// Artifacts a run produces (today: a task's result, tasks.ts): kernel-minted ids, owned by a session.
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { appendEvent, nowIso } from "./transition.js";

export interface NewArtifact {
  sessionId: string;
  turnId: string | null;
  kind: string;
  title: string;
  body: unknown;
}

/** For callers that already checked the session's owner (in the same transaction). */
export function insertArtifact(db: Db, a: NewArtifact): string {
  const id = uuidv7();
  const at = nowIso();
  db.prepare(`INSERT INTO artifacts (artifact_id, session_id, run_id, kind, title, body_json, created_at) VALUES (?,?,?,?,?,?,?)`).run(
    id,
    a.sessionId,
    a.turnId,
    a.kind,
    a.title,
    JSON.stringify(a.body),
    at,
  );
  appendEvent(
    db,
    {
      entityKind: "artifact",
      entityId: id,
      sessionId: a.sessionId,
      turnId: a.turnId,
      type: "artifact.recorded",
      payload: { kind: a.kind },
    },
    at,
  );
  return id;
}

// Artifacts a run produces (a plan, a patch summary): kernel-minted ids, owned by a session.
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { appendEvent, nowIso } from "./transition.js";

export function recordArtifact(db: Db, scope: KernelScope, a: { sessionId: string; runId: string | null; kind: string; title: string; body: unknown }): string {
  ownedSession(db, scope, a.sessionId);
  const id = uuidv7();
  const at = nowIso();
  db.prepare(`INSERT INTO artifacts (artifact_id, session_id, run_id, kind, title, body_json, created_at) VALUES (?,?,?,?,?,?,?)`).run(id, a.sessionId, a.runId, a.kind, a.title, JSON.stringify(a.body), at);
  appendEvent(db, { entityKind: "artifact", entityId: id, sessionId: a.sessionId, runId: a.runId, type: "artifact.recorded", payload: { kind: a.kind } }, at);
  return id;
}

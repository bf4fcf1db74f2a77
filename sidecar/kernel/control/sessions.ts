// Sessions and their immutable execution profiles (control plane #3: profiles are immutable generations).
import { uuidv7 } from "../../../shared/ids.js";
import type { ExecutionRole, GenerationOptions, SessionSummary } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";
import { adapterDeclaration, adapterForModelSpec, providerBoundary } from "./adapterCapabilities.js";
import { ownedSession, type KernelScope } from "./scope.js";
import { appendEvent, nowIso } from "./transition.js";

export interface NewSession {
  title?: string;
  model?: string;
  role?: ExecutionRole;
  systemPrompt?: string;
  options?: GenerationOptions;
  workstreamId?: string;
}

export interface ProfileRow {
  session_id: string;
  generation: number;
  adapter: string;
  credential_scope: string;
  model_profile: string;
  working_directory: string;
  execution_role: ExecutionRole;
  system_prompt: string;
  options_json: string;
}

export function createSession(db: Db, scope: KernelScope, input: NewSession): { sessionId: string; profileGeneration: number } {
  const model = input.model ?? "";
  const adapter = adapterForModelSpec(model);
  const decl = adapterDeclaration(adapter);
  const sessionId = uuidv7();
  const at = nowIso();
  const role = input.role ?? "coordinator";
  db.prepare(
    `INSERT INTO sessions (
       session_id, owner_id, workspace, title, execution_role, provider_boundary,
       profile_generation, workstream_id, created_at, updated_at)
     VALUES (?,?,?,?,?,?, 1,?,?,?)`,
  ).run(sessionId, scope.ownerId, scope.workspace, input.title ?? "", role, providerBoundary(adapter), input.workstreamId ?? null, at, at);
  insertProfile(
    db,
    {
      session_id: sessionId,
      generation: 1,
      adapter,
      credential_scope: decl.credentialScope,
      model_profile: model,
      working_directory: scope.workspace,
      execution_role: role,
      system_prompt: input.systemPrompt ?? "",
      options_json: JSON.stringify(input.options ?? {}),
    },
    at,
  );
  appendEvent(
    db,
    { entityKind: "session", entityId: sessionId, sessionId, type: "session.created", payload: { role, adapter, profileGeneration: 1 } },
    at,
  );
  return { sessionId, profileGeneration: 1 };
}

function insertProfile(db: Db, p: ProfileRow, at: string): void {
  db.prepare(
    `INSERT INTO session_execution_profiles (
       session_id, generation, adapter, credential_scope, model_profile,
       working_directory, execution_role, system_prompt, options_json, created_at)
     VALUES (?,?,?,?,?, ?,?,?,?,?)`,
  ).run(
    p.session_id,
    p.generation,
    p.adapter,
    p.credential_scope,
    p.model_profile,
    p.working_directory,
    p.execution_role,
    p.system_prompt,
    p.options_json,
    at,
  );
}

/** One generation of a session's profile (a run's pinned one). */
export function profileAt(db: Db, sessionId: string, generation: number): ProfileRow {
  return db
    .prepare(`SELECT * FROM session_execution_profiles WHERE session_id = ? AND generation = ?`)
    .get(sessionId, generation) as ProfileRow;
}

export function currentProfile(db: Db, sessionId: string): ProfileRow {
  return db
    .prepare(
      `SELECT p.* FROM session_execution_profiles p
       JOIN sessions s ON s.session_id = p.session_id AND s.profile_generation = p.generation
       WHERE s.session_id = ?`,
    )
    .get(sessionId) as ProfileRow;
}

export function sessionSummary(db: Db, sessionId: string): SessionSummary {
  const row = db
    .prepare(`
    SELECT s.session_id, s.title, s.execution_role, s.created_at, s.updated_at, p.adapter, p.model_profile,
      (SELECT run_id FROM runs r WHERE r.session_id = s.session_id AND r.status = 'active') AS active_run_id,
      f.parent_session_id AS fork_parent, f.at_seq AS fork_at_seq, o.title AS fork_parent_title
    FROM sessions s JOIN session_execution_profiles p ON p.session_id = s.session_id AND p.generation = s.profile_generation
    LEFT JOIN session_forks f ON f.session_id = s.session_id LEFT JOIN sessions o ON o.session_id = f.parent_session_id
    WHERE s.session_id = ?`)
    .get(sessionId) as {
    session_id: string;
    title: string;
    execution_role: ExecutionRole;
    created_at: string;
    updated_at: string;
    adapter: string;
    model_profile: string;
    active_run_id: string | null;
    fork_parent: string | null;
    fork_at_seq: number | null;
    fork_parent_title: string | null;
  };
  return {
    sessionId: row.session_id,
    title: row.title,
    role: row.execution_role,
    adapter: row.adapter,
    model: row.model_profile,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    activeTurnId: row.active_run_id,
    // issue 29 item 2: History shows "forked from <title> at #N".
    ...(row.fork_parent ? { forkedFrom: { sessionId: row.fork_parent, title: row.fork_parent_title ?? "", atSeq: row.fork_at_seq! } } : {}),
  };
}

export function listSessions(db: Db, scope: KernelScope, limit: number): SessionSummary[] {
  // A hidden chat (issue 15: deleted from the history list) stays in the journal, not in the list.
  const ids = db
    .prepare(`SELECT session_id FROM sessions WHERE owner_id = ? AND hidden_at IS NULL ORDER BY updated_at DESC, session_id DESC LIMIT ?`)
    .all(scope.ownerId, limit) as { session_id: string }[];
  return ids.map((r) => sessionSummary(db, r.session_id));
}

/** A new title (the chat view's Rename); the order of the list (updated_at) does not change. */
export function renameSession(db: Db, scope: KernelScope, sessionId: string, title: string): SessionSummary {
  ownedSession(db, scope, sessionId);
  db.prepare(`UPDATE sessions SET title = ? WHERE session_id = ?`).run(title, sessionId);
  appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: "session.renamed", payload: { title } }, nowIso());
  return sessionSummary(db, sessionId);
}

/** Hides a session from session/list (the chat view's Delete); its journal rows stay as they are. */
export function hideSession(db: Db, scope: KernelScope, sessionId: string): void {
  ownedSession(db, scope, sessionId);
  const at = nowIso();
  db.prepare(`UPDATE sessions SET hidden_at = COALESCE(hidden_at, ?) WHERE session_id = ?`).run(at, sessionId);
  appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: "session.hidden", payload: {} }, at);
}

// The journal of a folder after long use, written straight into SQLite (issue 26): for the journal
// bench's per-call and reconciliation figures and the chat history bench's long session.
import { openJournal } from "../../../sidecar/journal/journal.js";

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

/**
 * A journal after long use, `rows` conversation rows: sessions of 50 finished runs, each run a user
 * message, a tool call and its result, a final answer (4 rows), its ledger row, attempt, snapshot and
 * events. Written set-based (a recursive row counter), as fast as SQLite inserts.
 */
export function seedHistory(file: string, rows: number, perSession = 50): number {
  const journal = openJournal(file);
  const t0 = process.hrtime.bigint();
  const runs = Math.max(1, Math.floor(rows / 4));
  journal.withTransaction((db) => {
    const at = new Date().toISOString();
    const counter = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
    const session = `printf('s%09d', i / ${perSession})`;
    db.prepare(
      `${counter(Math.ceil(runs / perSession))} INSERT INTO sessions (session_id, owner_id, workspace, title, execution_role, provider_boundary, profile_generation, created_at, updated_at)
       SELECT printf('s%09d', i), 'local:bench', '/ws', 'old', 'coordinator', 'local_user:scripted', 1, @at, @at FROM n`,
    ).run({ at });
    db.prepare(
      `INSERT INTO session_execution_profiles (session_id, generation, adapter, credential_scope, model_profile, working_directory, execution_role, system_prompt, options_json, created_at)
       SELECT session_id, 1, 'scripted', 'local_user', 'scripted:x', '/ws', 'coordinator', '', '{}', @at FROM sessions`,
    ).run({ at });
    db.prepare(
      `${counter(runs)} INSERT INTO context_snapshots (snapshot_id, session_id, generation, content_version, renderer_fingerprint, body_json, created_at)
       SELECT printf('p%09d', i), ${session}, i % ${perSession} + 1, 'v', 'f', '{}', @at FROM n`,
    ).run({ at });
    db.prepare(
      `${counter(runs)} INSERT INTO runs (run_id, session_id, owner_id, profile_generation, context_snapshot_id, status, created_at, updated_at)
       SELECT printf('r%09d', i), ${session}, 'local:bench', 1, printf('p%09d', i), 'completed', @at, @at FROM n`,
    ).run({ at });
    db.prepare(
      `${counter(runs)} INSERT INTO run_attempts (attempt_id, run_id, attempt_number, status, created_at, updated_at)
       SELECT printf('a%09d', i), printf('r%09d', i), 1, 'completed', @at, @at FROM n`,
    ).run({ at });
    db.prepare(
      `${counter(runs)} INSERT INTO tool_invocations (invocation_id, run_id, attempt_id, call_id, tool, input_hash, manifest_digest, boot_epoch, status, effect_class, retry_policy, input_json, result_json, created_at, updated_at)
       SELECT printf('i%09d', i), printf('r%09d', i), printf('a%09d', i), printf('c%09d', i), 'read_file', 'h', 'm', 'old', 'succeeded', 'read', 'safe_retry', '{"path":"a.txt"}', '{"bytes":200}', @at, @at FROM n`,
    ).run({ at });
    db.prepare(
      `${counter(runs * 4)} INSERT INTO conversation_journal (session_id, seq, run_id, role, status, body_json, created_at, updated_at)
       SELECT printf('s%09d', i / ${perSession * 4}), i % ${perSession * 4} + 1, printf('r%09d', i / 4),
         CASE i % 4 WHEN 0 THEN 'user' WHEN 3 THEN 'assistant' WHEN 1 THEN 'assistant' ELSE 'tool' END,
         'complete',
         CASE i % 4
           WHEN 0 THEN json_object('role', 'user', 'text', 'read a.txt and tell me what it says')
           WHEN 1 THEN json_object('role', 'assistant', 'text', '', 'toolCalls', json_array(json_object('callId', printf('c%09d', i / 4), 'name', 'read_file', 'arguments', json_object('path', 'a.txt'))))
           WHEN 2 THEN json_object('role', 'tool', 'callId', printf('c%09d', i / 4), 'name', 'read_file', 'ok', json('true'), 'output', printf('%.200c', 'x'))
           ELSE json_object('role', 'assistant', 'text', 'It says x, two hundred times.') END,
         @at, @at FROM n`,
    ).run({ at });
    db.prepare(
      `${counter(runs * 3)} INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at)
       SELECT 'run', printf('r%09d', i / 3), printf('s%09d', i / ${perSession * 3}), printf('r%09d', i / 3), 'seeded', '{}', @at FROM n`,
    ).run({ at });
  });
  const seedMs = ms(t0);
  journal.close();
  return seedMs;
}

// Numbered schema migrations: MIGRATIONS[n-1] takes user_version n-1 to n. Append only; never edit
// a released step. Table, index and status names follow spec 004.
import type Database from "better-sqlite3";

type Step = (db: Database.Database) => void;

const ACTIVE_ATTEMPT = `('queued','starting','running','waiting_input','waiting_approval','cancelling')`;
/** Every attempt status, as v1 wrote its CHECK (kept out of line only for the line width). */
const ATTEMPT = `('queued','starting','running','waiting_input','waiting_approval','cancelling','completed','failed','cancelled','orphaned')`;

const v1: Step = (db) =>
  db.exec(`
CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  workspace TEXT NOT NULL,
  title TEXT NOT NULL,
  execution_role TEXT NOT NULL CHECK (execution_role IN ('coordinator','leaf')),
  provider_boundary TEXT NOT NULL,
  profile_generation INTEGER NOT NULL,
  workstream_id TEXT REFERENCES workstreams(workstream_id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX sessions_updated_idx ON sessions(updated_at);

-- spec 004: session execution profiles are immutable generations.
CREATE TABLE session_execution_profiles (
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  generation INTEGER NOT NULL CHECK (generation >= 1),
  adapter TEXT NOT NULL,
  credential_scope TEXT NOT NULL CHECK (credential_scope IN ('local_user','managed_cloud')),
  model_profile TEXT NOT NULL,
  working_directory TEXT NOT NULL,
  execution_role TEXT NOT NULL CHECK (execution_role IN ('coordinator','leaf')),
  system_prompt TEXT NOT NULL,
  options_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, generation)
);
CREATE TRIGGER session_execution_profiles_immutable BEFORE UPDATE ON session_execution_profiles
BEGIN SELECT RAISE(ABORT, 'session_execution_profiles rows are immutable: create a new generation'); END;

CREATE TABLE workstreams (
  workstream_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  workspace TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE context_snapshots (
  snapshot_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  generation INTEGER NOT NULL,
  content_version TEXT NOT NULL,
  renderer_fingerprint TEXT NOT NULL,
  body_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (session_id, generation)
);

CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  owner_id TEXT NOT NULL,
  profile_generation INTEGER NOT NULL,
  context_snapshot_id TEXT NOT NULL REFERENCES context_snapshots(snapshot_id),
  status TEXT NOT NULL CHECK (status IN ('active','completed','failed','cancelled')),
  reason TEXT,
  client_id TEXT,
  request_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  FOREIGN KEY (session_id, profile_generation) REFERENCES session_execution_profiles(session_id, generation)
);
CREATE INDEX runs_session_idx ON runs(session_id, created_at);
-- spec 004 (local adaptation): one active run per session, so turns never interleave.
CREATE UNIQUE INDEX runs_one_active_per_session_uq ON runs(session_id) WHERE status = 'active';

CREATE TABLE run_attempts (
  attempt_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  attempt_number INTEGER NOT NULL,
  binding_id TEXT REFERENCES adapter_bindings(binding_id),
  status TEXT NOT NULL CHECK (status IN ${ATTEMPT}),
  reason TEXT,
  cancel_dispatch_attempted INTEGER NOT NULL DEFAULT 0,
  cancel_adapter_acknowledged INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (run_id, attempt_number)
);
-- spec 004: exactly one non-terminal attempt per run has execution authority.
CREATE UNIQUE INDEX run_attempts_one_active_per_run_uq ON run_attempts(run_id) WHERE status IN ${ACTIVE_ATTEMPT};
CREATE INDEX run_attempts_status_idx ON run_attempts(status);

CREATE TABLE adapter_bindings (
  binding_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  adapter TEXT NOT NULL,
  binding_generation INTEGER NOT NULL,
  profile_generation INTEGER NOT NULL,
  compatibility_hash TEXT NOT NULL,
  adapter_native_session_id TEXT,
  resume_fidelity TEXT NOT NULL CHECK (resume_fidelity IN ('none','native')),
  status TEXT NOT NULL CHECK (status IN ('active','stale')),
  stale_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (session_id, adapter, binding_generation)
);
CREATE INDEX adapter_bindings_status_idx ON adapter_bindings(status, resume_fidelity);

-- spec 004: lifecycle transitions and their events commit together; event_seq is monotonic.
CREATE TABLE events (
  event_seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_kind TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  session_id TEXT,
  run_id TEXT,
  type TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_entity_idx ON events(entity_id);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

-- spec 004: physical tool authority; the ledger of claims.
CREATE TABLE tool_invocations (
  invocation_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  attempt_id TEXT NOT NULL REFERENCES run_attempts(attempt_id),
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  manifest_digest TEXT NOT NULL,
  boot_epoch TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('prepared','dispatched','succeeded','failed','outcome_unknown')),
  effect_class TEXT NOT NULL CHECK (effect_class IN ('read','idempotent_write','non_idempotent_write','network')),
  retry_policy TEXT NOT NULL CHECK (retry_policy IN ('safe_retry','never_auto_retry')),
  reason TEXT,
  result_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (run_id, call_id)
);
CREATE INDEX tool_invocations_status_idx ON tool_invocations(status);
CREATE INDEX tool_invocations_attempt_idx ON tool_invocations(attempt_id);

-- spec 004: the kernel journal is the only canonical conversation writer; seq is per session.
CREATE TABLE conversation_journal (
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  seq INTEGER NOT NULL,
  run_id TEXT REFERENCES runs(run_id),
  role TEXT NOT NULL CHECK (role IN ('system','user','assistant','tool')),
  status TEXT NOT NULL CHECK (status IN ('pending','streaming','complete','failed')),
  body_json TEXT NOT NULL,
  repair_code TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX conversation_journal_status_idx ON conversation_journal(status);

CREATE TABLE artifacts (
  artifact_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  run_id TEXT REFERENCES runs(run_id),
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  body_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Background tasks: a leaf session under a workstream, started by a coordinator run.
CREATE TABLE delegations (
  delegation_id TEXT PRIMARY KEY,
  parent_session_id TEXT REFERENCES sessions(session_id),
  child_session_id TEXT NOT NULL REFERENCES sessions(session_id),
  run_id TEXT REFERENCES runs(run_id),
  workstream_id TEXT REFERENCES workstreams(workstream_id),
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued','running','interrupted','completed','failed','cancelled')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- spec 004: exactly one recovery dispatch per interrupted delegation attempt.
CREATE TABLE recovery_dispatches (
  recovery_id TEXT PRIMARY KEY,
  delegation_id TEXT NOT NULL REFERENCES delegations(delegation_id),
  interrupted_attempt_id TEXT NOT NULL REFERENCES run_attempts(attempt_id),
  status TEXT NOT NULL CHECK (status IN ('pending','dispatched','abandoned')),
  created_at TEXT NOT NULL,
  UNIQUE (delegation_id, interrupted_attempt_id)
);
CREATE INDEX delegations_run_idx ON delegations(run_id);

-- spec 004: required spawn/delegate/continue operations stay unresolved until the same logical op succeeds.
CREATE TABLE control_obligations (
  obligation_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  kind TEXT NOT NULL CHECK (kind IN ('spawn','delegate','continue')),
  logical_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('unresolved','resolved')),
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (run_id, logical_key)
);
`);

// The call's validated input, so a batch interrupted by a crash can be restored to history with an
// explicit outcome (spec 000 #6: history stays structurally complete) instead of vanishing.
const v2: Step = (db) => db.exec(`ALTER TABLE tool_invocations ADD COLUMN input_json TEXT;`);

// spec 004: profile generations are immutable, so a row can no more be deleted than updated.
const v3: Step = (db) =>
  db.exec(`CREATE TRIGGER session_execution_profiles_no_delete BEFORE DELETE ON session_execution_profiles
BEGIN SELECT RAISE(ABORT, 'session_execution_profiles rows are immutable: they cannot be deleted'); END;`);

// issue 13: a condensed view of a session's history, journaled as its own event: the summary that
// replaces messages from_seq..through_seq and the tool outputs elided, for the model only. The
// messages themselves stay in conversation_journal; the latest row is what a resumed session shows.
const v4: Step = (db) =>
  db.exec(`CREATE TABLE context_condensations (
  condensation_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  run_id TEXT REFERENCES runs(run_id),
  trigger TEXT NOT NULL CHECK (trigger IN ('automatic','on_demand')),
  replaces_from_seq INTEGER,
  replaces_through_seq INTEGER,
  summary TEXT,
  elided_call_ids_json TEXT NOT NULL,
  tokens_before INTEGER NOT NULL,
  tokens_after INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX context_condensations_session_idx ON context_condensations(session_id, created_at, condensation_id);`);

// issue 12: a background task keeps its instruction, its tool ceiling (never wider than its parent's)
// and why it ended or was orphaned, beside its delegation row.
const v5: Step = (db) =>
  db.exec(`ALTER TABLE delegations ADD COLUMN instruction TEXT;
ALTER TABLE delegations ADD COLUMN tools_json TEXT;
ALTER TABLE delegations ADD COLUMN reason TEXT;
CREATE INDEX delegations_status_idx ON delegations(status, created_at);`);

// issue 14 item 5: each write_file/edit_file install keeps the file's pre-image (its hash always,
// its bytes up to a bound) and the hash it left; each undo of a turn's edits keeps its per-file outcome.
const v6: Step = (db) =>
  db.exec(`CREATE TABLE file_writes (
  write_id TEXT PRIMARY KEY,
  invocation_id TEXT NOT NULL REFERENCES tool_invocations(invocation_id),
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  path TEXT NOT NULL,
  existed_before INTEGER NOT NULL CHECK (existed_before IN (0,1)),
  before_sha256 TEXT,
  before_size INTEGER,
  before_content BLOB,
  after_sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX file_writes_run_idx ON file_writes(run_id, created_at);
CREATE TABLE file_undos (
  undo_id TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  path TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('restored','removed','refused')),
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (undo_id, path)
);
CREATE INDEX file_undos_run_idx ON file_undos(run_id, path);`);

// issue 15: a chat deleted from the chat view's history list is hidden, never erased: the journal
// keeps its messages, runs and ledger; session/list leaves it out.
const v7: Step = (db) => db.exec(`ALTER TABLE sessions ADD COLUMN hidden_at TEXT;`);

// issue 15: what a person attached to a message (the current file, the selection, a file picked with
// @), one row per attachment of the run's user message: its place and the hash and size of the text
// the kernel read through its anchored tools (the text itself is in the message). A session erased
// on the person's explicit request keeps its row (runs and the ledger point at it) but no messages.
const v8: Step = (db) =>
  db.exec(`CREATE TABLE message_attachments (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file','selection')),
  path TEXT NOT NULL,
  start_line INTEGER,
  end_line INTEGER,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, ordinal)
);
ALTER TABLE sessions ADD COLUMN erased_at TEXT;`);

// issue 26 item 1: every hot query on the conversation journal is planned on an index that narrows it
// to a run or a call. The status index goes: every row is written `complete`, so it narrowed nothing,
// yet the planner chose it for the per-result checks, which then read the whole journal. A tool
// result is found by its session and call id (an expression index over the body, tool rows only).
// Reconciliation finds the runs left active by status, as it finds attempts and ledger rows; a task's
// result artifact is found by its run, and a task session's tool ceiling by the session.
const v9: Step = (db) =>
  db.exec(`DROP INDEX conversation_journal_status_idx;
CREATE INDEX conversation_journal_run_idx ON conversation_journal(run_id, role, seq);
CREATE INDEX conversation_journal_tool_result_idx ON conversation_journal(session_id, json_extract(body_json, '$.callId')) WHERE role = 'tool';
CREATE INDEX runs_status_idx ON runs(status);
CREATE INDEX artifacts_run_idx ON artifacts(run_id, kind, created_at);
CREATE INDEX delegations_child_session_idx ON delegations(child_session_id);`);

// issue 22 item 3: whether a tool result answers a ledger claim or why its call never reached the
// ledger (refused by the gate, denied, not run, stopped by a loop guard) is a typed column of its
// row, not read back from its words. Rows written before it: "claimed" when the ledger has the run's
// claim for the call; otherwise from the words every such result began with until now (the one and
// only time they are read).
const v10: Step = (db) =>
  db.exec(`ALTER TABLE conversation_journal ADD COLUMN result_kind TEXT
  CHECK (result_kind IN ('claimed','refused','denied','not_run','stopped'));
UPDATE conversation_journal SET result_kind = CASE
    WHEN EXISTS (SELECT 1 FROM tool_invocations t
      WHERE t.run_id = conversation_journal.run_id AND t.call_id = json_extract(conversation_journal.body_json, '$.callId')) THEN 'claimed'
    WHEN json_extract(body_json, '$.output') LIKE 'denied: %' THEN 'denied'
    WHEN json_extract(body_json, '$.output') LIKE 'not run: stopped: %' THEN 'stopped'
    WHEN json_extract(body_json, '$.output') LIKE 'not run: %' THEN 'not_run'
    ELSE 'refused' END
  WHERE role = 'tool';`);

// issue 24: clients are principals. Who started each run (client kind and id, Restricted Mode), the
// same for a task (pinned for its life: a resumed run keeps it), and every approval decision: the
// call, the decision, the reason, who decided (client kind and id), where (surface) and when.
const v11: Step = (db) =>
  db.exec(`CREATE TABLE run_origins (
  run_id TEXT PRIMARY KEY REFERENCES runs(run_id),
  client_kind TEXT NOT NULL CHECK (client_kind IN ('window','terminal','task','delegation','unnamed')),
  client_id TEXT NOT NULL,
  read_only INTEGER NOT NULL CHECK (read_only IN (0,1)),
  created_at TEXT NOT NULL
);
CREATE TABLE delegation_origins (
  delegation_id TEXT PRIMARY KEY REFERENCES delegations(delegation_id),
  client_kind TEXT NOT NULL,
  client_id TEXT NOT NULL,
  read_only INTEGER NOT NULL CHECK (read_only IN (0,1)),
  created_at TEXT NOT NULL
);
CREATE TABLE approval_decisions (
  decision_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  decision TEXT NOT NULL CHECK (decision IN ('approve','deny')),
  reason TEXT NOT NULL,
  decided_by_kind TEXT NOT NULL,
  decided_by_id TEXT NOT NULL,
  surface TEXT NOT NULL CHECK (surface IN ('lens','card','notification','terminal','policy','rule')),
  decided_at TEXT NOT NULL
);
CREATE INDEX approval_decisions_session_idx ON approval_decisions(session_id, decided_at);`);

// issue 27, item 1: the instruction files (AGENTS.md, .clinerules, ...) and the person's own rules the
// person turned off, by path, for this workspace (one journal per folder). A row says on or off; no
// row is on, so a new file applies until it is turned off.
const instructionSwitches: Step = (db) =>
  db.exec(`CREATE TABLE instruction_switches (
  path TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0,1)),
  updated_at TEXT NOT NULL
);`);

// issue 28: a workspace or imported MCP server starts only after the person confirmed it once. The
// confirmation is for one exact configuration (its digest): a changed command line asks again.
const mcpConfirmations: Step = (db) =>
  db.exec(`CREATE TABLE mcp_server_confirmations (
  server_name TEXT NOT NULL,
  config_digest TEXT NOT NULL,
  source_label TEXT NOT NULL,
  command_line TEXT NOT NULL,
  confirmed_by_kind TEXT NOT NULL,
  confirmed_by_id TEXT NOT NULL,
  confirmed_at TEXT NOT NULL,
  PRIMARY KEY (server_name, config_digest)
);`);

// issue 29 item 1: a rewind to a user message. `conversation` or `both`: that message and every later
// one through through_seq leave the model's view (the journal keeps them; clients fold them under
// "rewound"); `files` or `both`: each file the later turns wrote goes back to its bytes before them,
// one row per file with its outcome and the bytes the rewind replaced (so the rewind can be undone).
// undone_at: the person undid it; its files' outcomes of that undo are on their rows.
const rewindTables: Step = (db) =>
  db.exec(`CREATE TABLE rewinds (
  rewind_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id),
  to_seq INTEGER NOT NULL,
  through_seq INTEGER NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('conversation','files','both')),
  created_at TEXT NOT NULL,
  undone_at TEXT
);
CREATE INDEX rewinds_session_idx ON rewinds(session_id, created_at);
CREATE TABLE rewind_files (
  rewind_id TEXT NOT NULL REFERENCES rewinds(rewind_id),
  path TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('restored','removed','unchanged','refused')),
  message TEXT NOT NULL,
  replaced_existed INTEGER CHECK (replaced_existed IN (0,1)),
  replaced_content BLOB,
  left_sha256 TEXT,
  undo_outcome TEXT CHECK (undo_outcome IN ('restored','removed','unchanged','refused')),
  undo_message TEXT,
  PRIMARY KEY (rewind_id, path)
);`);

// issue 29 item 2: a session forked from another at one of its user messages (at_seq, the original's #):
// History shows "forked from <title> at #N". One row per fork, keyed by the new session.
const sessionForks: Step = (db) =>
  db.exec(`CREATE TABLE session_forks (
  session_id TEXT PRIMARY KEY REFERENCES sessions(session_id),
  parent_session_id TEXT NOT NULL REFERENCES sessions(session_id),
  at_seq INTEGER NOT NULL,
  created_at TEXT NOT NULL
);`);

// issue 28 item 5: an MCP server's resource attached with @ is journaled like a file: its URI in
// path, its server in server. SQLite cannot widen a CHECK in place, so the table is rebuilt.
const resourceAttachments: Step = (db) =>
  db.exec(`CREATE TABLE message_attachments_next (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file','selection','resource')),
  path TEXT NOT NULL,
  start_line INTEGER,
  end_line INTEGER,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  server TEXT CHECK ((kind = 'resource') = (server IS NOT NULL)),
  PRIMARY KEY (run_id, ordinal)
);
INSERT INTO message_attachments_next (run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at)
  SELECT run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at FROM message_attachments;
DROP TABLE message_attachments;
ALTER TABLE message_attachments_next RENAME TO message_attachments;`);

// issue 29 item 3: context from the editor is journaled like a file: a folder's listing (path: the
// folder), the Problems list (path: `workspace` or the file), the active terminal's last command
// (path: the terminal's name) and the working tree's changes (path: the repository's folder). The
// CHECK widens, so the table is rebuilt; every earlier row is kept as it was.
const editorContextAttachments: Step = (db) =>
  db.exec(`CREATE TABLE message_attachments_next (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file','selection','resource','folder','problems','terminal','changes')),
  path TEXT NOT NULL,
  start_line INTEGER,
  end_line INTEGER,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  server TEXT CHECK ((kind = 'resource') = (server IS NOT NULL)),
  PRIMARY KEY (run_id, ordinal)
);
INSERT INTO message_attachments_next (run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at, server)
  SELECT run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at, server FROM message_attachments;
DROP TABLE message_attachments;
ALTER TABLE message_attachments_next RENAME TO message_attachments;`);

// issue 25 item 11: how a run ended as its footer said it (cancelled, failed, stopped, cut at the
// token cap) and the answer text it streamed that no message holds, so a reloaded chat shows what
// the person saw. Presentation only: nothing replays it to the model. NULL: a plain completion, or
// a run older than this migration (its status and reason still tell how it ended).
const runEndings: Step = (db) => db.exec(`ALTER TABLE runs ADD COLUMN ending_json TEXT;`);

// issue 29 item 3: a web page attached as `url` (its page is the turn's first web_fetch result; the
// row keeps the URL and the message block's size). The CHECK widens, so the table is rebuilt; every
// earlier row is kept as it was.
const urlAttachments: Step = (db) =>
  db.exec(`CREATE TABLE message_attachments_next (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file','selection','resource','folder','problems','terminal','changes','url')),
  path TEXT NOT NULL,
  start_line INTEGER,
  end_line INTEGER,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  server TEXT CHECK ((kind = 'resource') = (server IS NOT NULL)),
  PRIMARY KEY (run_id, ordinal)
);
INSERT INTO message_attachments_next (run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at, server)
  SELECT run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at, server FROM message_attachments;
DROP TABLE message_attachments;
ALTER TABLE message_attachments_next RENAME TO message_attachments;`);

// issue 26 item 3: the status indexes of the ledger, attempts and runs hold only the rows in flight,
// the ones startup reconciliation looks for (and the only statuses any statement finds by status).
// Indexed in full, every terminal row kept an entry for ever, and a repair of 100k interrupted runs
// moved 200k entries into the terminal end of two indexes it never reads. The predicates are in
// the form the queries name their statuses (a single status as `status = 'x'`, the attempts' active
// set as the IN list of their unique index), so that SQLite can prove a query stays inside them.
const inFlightStatusIndexes: Step = (db) =>
  db.exec(`DROP INDEX tool_invocations_status_idx;
CREATE INDEX tool_invocations_in_flight_idx ON tool_invocations(status) WHERE status = 'prepared' OR status = 'dispatched';
DROP INDEX run_attempts_status_idx;
CREATE INDEX run_attempts_active_idx ON run_attempts(status) WHERE status IN ${ACTIVE_ATTEMPT};
DROP INDEX runs_status_idx;
CREATE INDEX runs_active_idx ON runs(status) WHERE status = 'active';`);

export const MIGRATIONS: readonly Step[] = [
  v1,
  v2,
  v3,
  v4,
  v5,
  v6,
  v7,
  v8,
  v9,
  v10,
  v11,
  instructionSwitches,
  mcpConfirmations,
  rewindTables,
  sessionForks,
  resourceAttachments,
  editorContextAttachments,
  runEndings,
  urlAttachments,
  inFlightStatusIndexes,
];

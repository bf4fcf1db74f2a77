// Journal benchmark (issue 3). Run: node --import tsx test/bench/journal.ts
// Prints the kernel's own cost per tool call (ledger prepare + dispatched (FULL) + batch commit),
// the journal's commit rate as a ratio to raw better-sqlite3 on the same file settings measured in
// the same run, and startup reconciliation time for 100k interrupted runs.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { uuidv7 } from "../../shared/ids.js";
import { openJournal, type Journal } from "../../sidecar/journal/journal.js";
import { ControlPlane } from "../../sidecar/kernel/control/controlPlane.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-"));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const scope = () => ({ ownerId: "local:bench", workspace: "/ws", bootEpoch: uuidv7() });

function perToolCall(calls: number, folder = dir): { medianMs: number; p90Ms: number } {
  const journal = openJournal(path.join(folder, "calls.sqlite"));
  const control = new ControlPlane(journal, scope());
  const { sessionId } = control.createSession({ model: "scripted:bench" });
  let { runId, attemptId } = control.admitRun(sessionId, "bench", { clientId: "b", requestId: "1" });
  control.transitionAttempt(runId, attemptId, "starting");
  control.transitionAttempt(runId, attemptId, "running");
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    const callId = `call-${i}`;
    const claim = control.prepareInvocation({
      runId,
      attemptId,
      callId,
      tool: "write_file",
      input: { path: `f${i}.txt`, text: "x".repeat(200) },
      manifestDigest: "m",
      effectClass: "non_idempotent_write",
    });
    control.markDispatched(claim);
    control.appendMessages(
      sessionId,
      runId,
      [
        { role: "assistant", text: "", toolCalls: [{ callId, name: "write_file", arguments: { path: `f${i}.txt` } }] },
        { role: "tool", callId, name: "write_file", ok: true, output: "wrote 200 bytes" },
      ],
      [{ claim, outcome: { status: "succeeded" } }],
    );
    times.push(ms(t0));
    if (i % 100 === 99) {
      // a fresh run now and then, like real turns
      control.finishRun(runId, "completed");
      ({ runId, attemptId } = control.admitRun(sessionId, "bench", { clientId: "b", requestId: String(i) }));
      control.transitionAttempt(runId, attemptId, "starting");
      control.transitionAttempt(runId, attemptId, "running");
    }
  }
  journal.close();
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: median(times), p90Ms: sorted[Math.floor(sorted.length * 0.9)]! };
}

const INSERT = `INSERT INTO events (entity_kind, entity_id, session_id, run_id, type, payload_json, created_at) VALUES ('bench', ?, NULL, NULL, 'bench', '{}', ?)`;

/** Commits per second, one event row per commit: the journal's withTransaction vs raw better-sqlite3. */
function commitRates(commits: number, durable: boolean): { journalPerSec: number; rawPerSec: number; ratio: number } {
  const journalFile = path.join(dir, `rate-j-${durable}.sqlite`);
  const rawFile = path.join(dir, `rate-r-${durable}.sqlite`);
  const journal: Journal = openJournal(journalFile);
  openJournal(rawFile).close(); // same schema
  const raw = new Database(rawFile, { timeout: 5000 });
  raw.pragma("journal_mode = WAL");
  raw.pragma(`synchronous = ${durable ? "FULL" : "NORMAL"}`);
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  const jStmt = journal.db.prepare(INSERT);
  const rStmt = raw.prepare(INSERT);
  const begin = raw.prepare("BEGIN IMMEDIATE");
  const commit = raw.prepare("COMMIT");
  let jMs = 0;
  let rMs = 0;
  // Interleaved rounds so both see the same disk and the same neighbours.
  for (let round = 0; round < 10; round++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < commits / 10; i++) journal.withTransaction(() => jStmt.run(String(i), "t"), { durable });
    jMs += ms(t0);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < commits / 10; i++) {
      begin.run();
      rStmt.run(String(i), "t");
      commit.run();
    }
    rMs += ms(t0);
  }
  journal.close();
  raw.close();
  const journalPerSec = commits / (jMs / 1000);
  const rawPerSec = commits / (rMs / 1000);
  return {
    journalPerSec: Math.round(journalPerSec),
    rawPerSec: Math.round(rawPerSec),
    ratio: Number((journalPerSec / rawPerSec).toFixed(3)),
  };
}

/** 100k runs left active by a dead kernel (attempt running, a dispatched call). */
function reconciliation(runs: number): { runs: number; firstMs: number; firstCpuMs: number; secondMs: number; seedMs: number } {
  const file = path.join(dir, "reconcile.sqlite");
  const journal = openJournal(file);
  const t0 = process.hrtime.bigint();
  journal.withTransaction((db) => {
    const at = new Date().toISOString();
    const perSession = 100;
    const session = db.prepare(
      `INSERT INTO sessions (session_id, owner_id, workspace, title, execution_role, provider_boundary, profile_generation, created_at, updated_at) VALUES (?, 'local:bench', '/ws', '', 'coordinator', 'local_user:scripted', 1, ?, ?)`,
    );
    const profile = db.prepare(
      `INSERT INTO session_execution_profiles (session_id, generation, adapter, credential_scope, model_profile, working_directory, execution_role, system_prompt, options_json, created_at) VALUES (?, 1, 'scripted', 'local_user', 'scripted:x', '/ws', 'coordinator', '', '{}', ?)`,
    );
    const snap = db.prepare(
      `INSERT INTO context_snapshots (snapshot_id, session_id, generation, content_version, renderer_fingerprint, body_json, created_at) VALUES (?, ?, ?, 'v', 'f', '{}', ?)`,
    );
    const run = db.prepare(
      `INSERT INTO runs (run_id, session_id, owner_id, profile_generation, context_snapshot_id, status, created_at, updated_at) VALUES (?, ?, 'local:bench', 1, ?, ?, ?, ?)`,
    );
    const attempt = db.prepare(
      `INSERT INTO run_attempts (attempt_id, run_id, attempt_number, status, created_at, updated_at) VALUES (?, ?, 1, 'running', ?, ?)`,
    );
    const inv = db.prepare(
      `INSERT INTO tool_invocations (invocation_id, run_id, attempt_id, call_id, tool, input_hash, manifest_digest, boot_epoch, status, effect_class, retry_policy, created_at, updated_at) VALUES (?, ?, ?, 'c', 't', 'h', 'm', 'old', 'dispatched', 'non_idempotent_write', 'never_auto_retry', ?, ?)`,
    );
    let sessionId = "";
    for (let i = 0; i < runs; i++) {
      if (i % perSession === 0) {
        sessionId = uuidv7();
        session.run(sessionId, at, at);
        profile.run(sessionId, at);
      }
      const runId = uuidv7();
      const attemptId = uuidv7();
      const snapshotId = uuidv7();
      snap.run(snapshotId, sessionId, (i % perSession) + 1, at);
      // Only the session's newest run may be active (one active run per session); older ones
      // are already finished but still hold an active attempt left by a crash of an older build.
      run.run(runId, sessionId, snapshotId, i % perSession === perSession - 1 ? "active" : "failed", at, at);
      attempt.run(attemptId, runId, at, at);
      inv.run(uuidv7(), runId, attemptId, at, at);
    }
  });
  const seedMs = ms(t0);
  journal.close();
  const reopen = () => {
    const j = openJournal(file);
    const control = new ControlPlane(j, scope());
    const cpu = process.cpuUsage();
    const t = process.hrtime.bigint();
    control.reconcile();
    const took = ms(t);
    const used = process.cpuUsage(cpu);
    j.close();
    return { took, cpuMs: (used.user + used.system) / 1000 };
  };
  const first = reopen();
  const second = reopen();
  return {
    runs,
    firstMs: Math.round(first.took),
    firstCpuMs: Math.round(first.cpuMs),
    secondMs: Math.round(second.took),
    seedMs: Math.round(seedMs),
  };
}

const perCall = perToolCall(1000);
console.log(
  `kernel cost per tool call (prepare + dispatched with FULL + batch commit): median ${perCall.medianMs.toFixed(3)} ms, p90 ${perCall.p90Ms.toFixed(3)} ms`,
);
// The same on tmpfs: what the kernel itself costs when the disk's fsync is taken away.
const shm = fs.existsSync("/dev/shm") ? fs.mkdtempSync("/dev/shm/hearth-bench-") : null;
const perCallNoDisk = shm ? perToolCall(1000, shm) : null;
if (shm) fs.rmSync(shm, { recursive: true, force: true });
if (perCallNoDisk)
  console.log(
    `  the same on tmpfs (kernel CPU cost without fsync): median ${perCallNoDisk.medianMs.toFixed(3)} ms, p90 ${perCallNoDisk.p90Ms.toFixed(3)} ms`,
  );
const normal = commitRates(4000, false);
console.log(
  `commit rate, synchronous=NORMAL: journal ${normal.journalPerSec}/s, raw better-sqlite3 ${normal.rawPerSec}/s, ratio ${normal.ratio}`,
);
const full = commitRates(1000, true);
console.log(
  `commit rate, synchronous=FULL:   journal ${full.journalPerSec}/s, raw better-sqlite3 ${full.rawPerSec}/s, ratio ${full.ratio}`,
);
const rec = reconciliation(100_000);
console.log(
  `startup reconciliation of ${rec.runs} interrupted runs: ${rec.firstMs} ms wall (${rec.firstCpuMs} ms CPU); second open (no-op): ${rec.secondMs} ms`,
);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  sqlite: (new Database(":memory:").prepare("select sqlite_version() v").get() as { v: string }).v,
  cpus: os.cpus().length,
  loadavg: os.loadavg(),
  perToolCall: perCall,
  perToolCallTmpfs: perCallNoDisk,
  commitRate: { normal, full },
  reconciliation: rec,
};
const out = path.resolve("test/bench/results/journal.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(results, null, 2) + "\n");
console.log(`wrote ${out}`);
fs.rmSync(dir, { recursive: true, force: true });

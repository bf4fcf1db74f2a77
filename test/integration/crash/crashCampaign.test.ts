// Crash campaign (issue 16, item 1): kill -9 of the kernel at a seeded random moment of a workload
// of concurrent chat sessions making approved shell and write calls, then restart twice. After each
// kill: no committed message is lost, no effect ran twice (each shell call appends its own token to
// a marker file), every call left in flight is failed or outcome_unknown, batches are complete, the
// journal passes integrity_check, and a second reconciliation changes nothing (harness #6, #10;
// control plane #21). HEARTH_CRASH_SEEDS=N runs N seeds (bench mode: hundreds).
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { HistoryMessage, TurnSummary } from "../../../shared/protocol/index.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const SEEDS = Number(process.env.HEARTH_CRASH_SEEDS ?? 3);
const SESSIONS = 3;
const TURNS = 6;
const TERMINAL_CALLS = new Set(["succeeded", "failed", "outcome_unknown"]);
const TERMINAL_ATTEMPTS = new Set(["completed", "failed", "cancelled", "orphaned"]);

/** Deterministic per seed (mulberry32), so a failing seed can be rerun alone. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sessionScript(dir: string, s: number, marker: string): string {
  const rounds = [];
  for (let t = 0; t < TURNS; t++) {
    rounds.push(
      {
        text: [`turn ${t}: running.`],
        delayMs: 15,
        toolCalls: [{ name: "shell", arguments: { command: `echo s${s}t${t} >> ${marker}; sleep 0.4` } }],
      },
      {
        text: [`turn ${t}: saving.`],
        delayMs: 15,
        toolCalls: [{ name: "write_file", arguments: { path: `notes-${s}.txt`, content: `turn ${t}\n` } }],
      },
      { text: [`turn ${t}: done.`], delayMs: 15 },
    );
  }
  const file = path.join(dir, `script-${s}.json`);
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

type Snapshot = { messages: HistoryMessage[]; runs: TurnSummary[] }[];

async function snapshot(k: TestKernel, sessionIds: string[]): Promise<Snapshot> {
  await k.client.initialize("crash-campaign", "0");
  return Promise.all(
    sessionIds.map(async (sessionId) => {
      const h = await k.client.request("session/history", { sessionId });
      return { messages: h.messages, runs: h.runs };
    }),
  );
}

it(`kill -9 at random moments of concurrent sessions loses no committed message and repeats no effect (${SEEDS} seeds; harness #6, #10, control plane #21)`, async (t) => {
  const killPoints = { callInFlight: 0, betweenCalls: 0 };
  for (let seed = 1; seed <= SEEDS; seed++) {
    const random = rng(seed);
    const root = tempDir(`crash-${seed}`);
    const workspace = path.join(root, "ws");
    fs.mkdirSync(workspace);
    const journalPath = path.join(root, "journal.sqlite");
    const marker = path.join(root, "effects.log");
    const env = { HEARTH_ALLOW_SCRIPTED: "1" };
    const admitted: { sessionId: string; message: string }[] = [];
    const sessionIds: string[] = [];

    const first = startTestKernel({ workspace, journalPath, env });
    await first.client.initialize("crash-campaign", "0");
    const driver = new TurnDriver(first.client, () => ({ decision: "approve", reason: "approved by the campaign" }));
    for (let s = 0; s < SESSIONS; s++)
      sessionIds.push((await first.client.request("session/create", { model: sessionScript(root, s, marker) })).sessionId);
    const workload = sessionIds
      .map(async (sessionId, s) => {
        for (let turn = 0; turn < TURNS; turn++) {
          const message = `session ${s} turn ${turn}`;
          const { turnId } = await first.client.request("turn/start", { sessionId, message });
          admitted.push({ sessionId, message }); // turn/start answers after the user message is committed
          await driver.completion(turnId);
        }
      })
      .map((p) => p.catch(() => undefined)); // the kill ends them mid-flight
    const killAfterMs = Math.round(100 + random() * 2700); // inside the ~3.5 s the workload takes
    await new Promise((r) => setTimeout(r, killAfterMs));
    first.child.kill("SIGKILL");
    await first.exited;
    first.client.dispose();
    await Promise.all(workload);
    await new Promise((r) => setTimeout(r, 500)); // an orphaned `sleep 0.4` finishes its append

    const second = startTestKernel({ workspace, journalPath, env });
    const after = await snapshot(second, sessionIds);
    await second.stop();
    const third = startTestKernel({ workspace, journalPath, env });
    const again = await snapshot(third, sessionIds);
    await third.stop();

    const label = `seed ${seed}`;
    t.diagnostic(
      `${label}: killed after ${killAfterMs} ms, ${admitted.length} turns admitted, ${after
        .flatMap((x) => x.runs)
        .map((r) => r.status)
        .join(",")}`,
    );
    for (const [i, sessionId] of sessionIds.entries()) {
      const users = after[i]!.messages.filter((m) => m.role === "user").map((m) => (m as { text: string }).text);
      for (const a of admitted.filter((x) => x.sessionId === sessionId))
        assert.ok(users.includes(a.message), `${label}: committed message "${a.message}" lost`);
      assertCompleteBatches(after[i]!.messages);
      for (const run of after[i]!.runs) {
        assert.ok(["completed", "failed", "cancelled"].includes(run.status), `${label}: run ${run.turnId} left ${run.status}`);
        for (const a of run.attempts)
          assert.ok(TERMINAL_ATTEMPTS.has(a.status), `${label}: an attempt of run ${run.turnId} left ${a.status}`);
        for (const row of run.ledger) assert.ok(TERMINAL_CALLS.has(row.status), `${label}: call ${row.callId} left ${row.status}`);
        if (run.ledger.some((row) => row.status === "outcome_unknown")) killPoints.callInFlight++;
        else if (run.status === "failed") killPoints.betweenCalls++;
      }
    }
    const tokens = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").split("\n").filter(Boolean) : [];
    assert.equal(new Set(tokens).size, tokens.length, `${label}: an effect ran twice: ${tokens.join(" ")}`);
    assert.deepEqual(again, after, `${label}: a second reconciliation changed the journal`);
    const db = new Database(journalPath, { readonly: true });
    try {
      assert.equal(db.pragma("integrity_check", { simple: true }), "ok", `${label}: integrity_check`);
    } finally {
      db.close();
    }
  }
  t.diagnostic(
    `seeds ${SEEDS}; runs interrupted with a call in flight ${killPoints.callInFlight}, between calls or in a model round ${killPoints.betweenCalls}`,
  );
});

// Crash safety of the ledger (issue 3, control plane #8): a real child process performing control-plane
// transitions is killed with SIGKILL at each kind of transition, inside and after its commit and at
// random points, over many seeds. After every kill the journal must reopen intact and reconciled.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../shared/ids.js";
import { openJournal } from "../../../sidecar/journal/journal.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import {
  attemptMachine,
  invocationMachine,
  runMachine,
  ACTIVE_ATTEMPT_STATUSES,
  type Machine,
} from "../../../sidecar/kernel/control/stateMachines.js";
import { DRIVER_OPS } from "../../support/ledgerDriverOps.js";

const DRIVER = path.resolve("test/support/ledgerDriver.ts");
const SEEDS = Number(process.env.HEARTH_CRASH_SEEDS ?? 30);

interface Progress {
  k: "run" | "attempt" | "inv";
  id: string;
  s: string;
  attempt?: string;
  session?: string;
  seqs?: number[];
}

function reachable<S extends string>(m: Machine<S>, from: S): Set<S> {
  const seen = new Set<S>([from]);
  const todo = [from];
  while (todo.length)
    for (const n of m.allowed[todo.pop()!])
      if (!seen.has(n)) {
        seen.add(n);
        todo.push(n);
      }
  return seen;
}

/** Runs the driver until it dies; returns what it reported as committed and how it ended. */
async function runDriver(
  file: string,
  seed: number,
  args: string[],
  killAfterLines?: number,
): Promise<{ lines: Progress[]; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ["--import", "tsx", DRIVER, file, String(seed), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: Progress[] = [];
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  for await (const line of readline.createInterface({ input: child.stdout })) {
    if (!line.startsWith("P ")) continue;
    lines.push(JSON.parse(line.slice(2)) as Progress);
    if (killAfterLines !== undefined && lines.length >= killAfterLines) child.kill("SIGKILL");
  }
  const signal = await exited;
  assert.equal(signal, "SIGKILL", `driver seed ${seed} ended without SIGKILL: ${stderr.slice(-2000)}`);
  return { lines, signal };
}

function tablesDump(db: ReturnType<typeof openJournal>["db"]): string {
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]
  ).map((t) => t.name);
  return JSON.stringify(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
}

function reopenAndCheck(file: string, lines: Progress[], label: string): void {
  const journal = openJournal(file); // integrity_check runs here and refuses damage
  const control = new ControlPlane(journal, { ownerId: "local:crash", workspace: "/ws", bootEpoch: uuidv7() });
  control.reconcile();
  const db = journal.db;
  assert.deepEqual(db.pragma("integrity_check"), [{ integrity_check: "ok" }], label);
  const active = ACTIVE_ATTEMPT_STATUSES.map((s) => `'${s}'`).join(",");
  assert.deepEqual(
    db.prepare(`SELECT run_id FROM run_attempts WHERE status IN (${active}) GROUP BY run_id HAVING COUNT(*) > 1`).all(),
    [],
    `${label}: a run has two active attempts`,
  );
  assert.deepEqual(
    db.prepare(`SELECT invocation_id, status FROM tool_invocations WHERE status IN ('prepared','dispatched')`).all(),
    [],
    `${label}: an in-flight call survived reconciliation`,
  );
  // Nothing committed is missing: every reported row exists at its reported status or a successor.
  const latest = new Map<string, Progress>();
  for (const l of lines) latest.set(l.id, l);
  for (const l of latest.values()) {
    const [m, table] =
      l.k === "run"
        ? [runMachine as Machine<string>, "runs"]
        : l.k === "attempt"
          ? [attemptMachine as Machine<string>, "run_attempts"]
          : [invocationMachine as Machine<string>, "tool_invocations"];
    const row = db.prepare(`SELECT status FROM ${table} WHERE ${m.idColumn} = ?`).get(l.id) as { status: string } | undefined;
    assert.ok(row, `${label}: committed ${l.k} ${l.id} is missing`);
    assert.ok(reachable(m, l.s).has(row.status), `${label}: ${l.k} ${l.id} went from committed ${l.s} to ${row.status}`);
    if (l.k === "run" && l.attempt) assert.ok(db.prepare(`SELECT 1 FROM run_attempts WHERE attempt_id = ?`).get(l.attempt));
    for (const seq of l.seqs ?? []) {
      assert.deepEqual(
        db.prepare(`SELECT status FROM conversation_journal WHERE session_id = ? AND seq = ?`).get(l.session, seq),
        { status: "complete" },
        `${label}: committed message ${seq} missing`,
      );
    }
  }
  const once = tablesDump(db);
  journal.close();
  const again = openJournal(file);
  new ControlPlane(again, { ownerId: "local:crash", workspace: "/ws", bootEpoch: uuidv7() }).reconcile();
  assert.equal(tablesDump(again.db), once, `${label}: a second reopen changed the journal`);
  again.close();
}

describe("crash safety: SIGKILL at each ledger transition (control plane #8, issue 3)", () => {
  it(`after every kill (${SEEDS} seeds): integrity ok, one active attempt per run, no in-flight call, nothing committed missing, second reopen changes nothing`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-crash-"));

    const modes = ["die-in", "die-after", "random"] as const;
    const covered = new Set<string>();
    for (let seed = 0; seed < SEEDS; seed++) {
      const mode = modes[seed % modes.length]!;
      // A fresh journal every 10 seeds keeps each check small; within a group crashes compound.
      const file = path.join(dir, `journal-${Math.floor(seed / 10)}.sqlite`);
      const op = DRIVER_OPS[Math.floor(seed / modes.length) % DRIVER_OPS.length]!;
      const nth = 1 + (seed % 4);
      const label = `seed ${seed} ${mode}${mode === "random" ? "" : ` ${op} #${nth}`}`;
      const { lines } =
        mode === "random"
          ? await runDriver(file, seed + 1, ["run"], 5 + ((seed * 7919) % 60))
          : await runDriver(file, seed + 1, [mode, op, String(nth)]);
      reopenAndCheck(file, lines, label);
      covered.add(mode === "random" ? mode : `${mode}:${op}`);
    }
    if (SEEDS >= 21) assert.equal(covered.size, 2 * DRIVER_OPS.length + 1, "every transition kind was killed inside and after its commit");
  });
});

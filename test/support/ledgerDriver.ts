// Crash-test driver: performs control-plane transitions on a real journal file and prints one
// progress line per committed transition, until it is killed. Run with `node --import tsx`.
// usage: ledgerDriver.ts JOURNAL SEED [die-in OP N | die-after OP N | run]
//   die-in:    SIGKILL itself inside the Nth transaction of kind OP, before COMMIT
//   die-after: SIGKILL itself right after the Nth transaction of kind OP committed
//   run:       loop until the parent kills it
import { uuidv7 } from "../../shared/ids.js";
import { openJournal, type Journal } from "../../sidecar/journal/journal.js";
import { ControlPlane } from "../../sidecar/kernel/control/controlPlane.js";
import type { EffectClass } from "../../shared/protocol/records.js";

import type { DriverOp } from "./ledgerDriverOps.js";

const [file, seedArg, mode = "run", dieOp, dieNth] = process.argv.slice(2);
if (!file || seedArg === undefined) throw new Error("usage: ledgerDriver.ts JOURNAL SEED [die-in|die-after OP N | run]");
let seed = Number(seedArg) >>> 0 || 1;
const rand = (): number => {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 2 ** 32;
};
const counts = new Map<string, number>();
let op: DriverOp = "admit";

function kill(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
}

const inner = openJournal(file);
// Wraps the journal so the driver can die between the transaction's work and its COMMIT.
const journal: Journal = {
  db: inner.db,
  path: inner.path,
  close: () => inner.close(),
  withTransaction: (fn, options) =>
    inner.withTransaction((db) => {
      const result = fn(db);
      const n = (counts.get(op) ?? 0) + 1;
      if (mode === "die-in" && op === dieOp && n === Number(dieNth)) kill();
      return result;
    }, options),
};
const control = new ControlPlane(journal, { ownerId: "local:crash", workspace: "/ws", bootEpoch: uuidv7() });
control.reconcile();

/** Marks `op` committed: prints its line (pipes are synchronous on Linux) and may die right after. */
function committed(kind: DriverOp, line: Record<string, unknown>): void {
  const n = (counts.get(kind) ?? 0) + 1;
  counts.set(kind, n);
  process.stdout.write(`P ${JSON.stringify(line)}\n`);
  if (mode === "die-after" && kind === dieOp && n === Number(dieNth)) kill();
}

function step<T>(kind: DriverOp, fn: () => T): T {
  op = kind;
  return fn();
}

const EFFECTS: EffectClass[] = ["read", "idempotent_write", "non_idempotent_write", "network"];
let sessionId = control.createSession({ title: "crash", model: "scripted:crash" }).sessionId;
for (let i = 0; ; i++) {
  if (i % 3 === 0) sessionId = control.createSession({ title: `crash ${i}`, model: "scripted:crash" }).sessionId;
  const { turnId, attemptId } = step("admit", () =>
    control.admitTurn(sessionId, `task ${i}`, { clientId: "driver", requestId: String(i) }),
  );
  committed("admit", { k: "run", id: turnId, s: "active", attempt: attemptId, session: sessionId });
  step("starting", () => control.transitionAttempt(turnId, attemptId, "starting"));
  committed("starting", { k: "attempt", id: attemptId, s: "starting" });
  step("running", () => control.transitionAttempt(turnId, attemptId, "running"));
  committed("running", { k: "attempt", id: attemptId, s: "running" });
  const calls = 1 + Math.floor(rand() * 3);
  for (let c = 0; c < calls; c++) {
    const callId = `call-${i}-${c}`;
    const claim = step("prepare", () =>
      control.prepareInvocation({
        turnId,
        attemptId,
        callId,
        tool: "write_file",
        input: { i, c },
        manifestDigest: "m1",
        effectClass: EFFECTS[Math.floor(rand() * EFFECTS.length)]!,
      }),
    );
    committed("prepare", { k: "inv", id: claim.invocationId, s: "prepared" });
    step("dispatch", () => control.markDispatched(claim));
    committed("dispatch", { k: "inv", id: claim.invocationId, s: "dispatched" });
    const ok = rand() < 0.8;
    const seqs = step("batch", () =>
      control.appendMessages(
        sessionId,
        turnId,
        [
          { role: "assistant", text: "", toolCalls: [{ callId, name: "write_file", arguments: { i, c } }] },
          { role: "tool", callId, name: "write_file", ok, output: ok ? "done" : "error" },
        ],
        [{ claim, outcome: { status: ok ? "succeeded" : "failed" } }],
      ),
    );
    committed("batch", { k: "inv", id: claim.invocationId, s: ok ? "succeeded" : "failed", session: sessionId, seqs });
  }
  const end = rand();
  const status = end < 0.7 ? "completed" : end < 0.85 ? "failed" : "cancelled";
  step("finish", () => {
    if (status === "cancelled") control.requestCancel(turnId, () => false);
    control.finishTurn(turnId, status, status === "completed" ? undefined : "driver");
  });
  committed("finish", { k: "run", id: turnId, s: status });
}

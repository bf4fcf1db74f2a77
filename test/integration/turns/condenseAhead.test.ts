// Condensing ahead of need (issue 30, item 3) through a real kernel on the synthetic chat model in a
// 2,048-token context. Invariants: a session whose prompt passed the threshold is condensed between
// turns, so the turns after it never condense inside themselves (no condensation journaled under
// their run); a message sent while that condensing runs cancels it and completes; a kernel killed
// during it loses nothing and journals nothing half-made.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import type { NotificationParams } from "../../../shared/protocol/methods.js";
import { CONDENSE_AHEAD_SHARE } from "../../../sidecar/kernel/turns/backgroundCondensing.js";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { restartableKernelOptions, startTestKernel, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

const CONTEXT = 2048;
const ENV = { HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: String(CONTEXT), HEARTH_TOOLS: "read_file,list_dir" };
const MAX_TURNS = 80;
/** A bound on the whole test so a missing log line fails it instead of hanging (not a timing assertion). */
const HANG_GUARD = { timeout: 600_000 };

interface Row {
  run_id: string | null;
  trigger: string;
}

/** The journal's condensations of the session, read from the real SQLite file. */
function condensationRows(journalPath: string, sessionId: string): Row[] {
  const db = new Database(journalPath, { readonly: true });
  try {
    return db
      .prepare("SELECT run_id, trigger FROM context_condensations WHERE session_id = ? ORDER BY created_at, rowid")
      .all(sessionId) as Row[];
  } finally {
    db.close();
  }
}

/** Resolves when the kernel's log has a line matching `pattern` beyond the first `from` lines. */
async function logLine(k: TestKernel, pattern: RegExp, from = 0): Promise<number> {
  for (;;) {
    const at = k.stderr.findIndex((l, i) => i >= from && pattern.test(l));
    if (at >= 0) return at;
    if (k.child.exitCode !== null) throw new Error(`the kernel exited waiting for ${pattern}: ${k.stderr.slice(-5).join("\n")}`);
    await sleep(20);
  }
}

async function startSession(prefix: string, env: Record<string, string> = {}) {
  const models = ensureFixtureModels();
  const options = restartableKernelOptions(prefix, { ...ENV, ...env });
  const k = startTestKernel(options);
  kernels.push(k);
  await k.client.initialize("test", "0");
  const { sessionId } = await k.client.request("session/create", { model: models.chat, options: { maxTokens: 24 } });
  return { k, options, sessionId, driver: new TurnDriver(k.client) };
}

const message = (i: number) => `Turn ${i}: please remember that box ${i} holds ${i * 7} marbles and a note about item ${i}.`;
const crossed = (used: number) => used >= CONTEXT * CONDENSE_AHEAD_SHARE;

it(
  "a session past the threshold is condensed between turns, so no later turn condenses inside itself (issue 30, item 3)",
  HANG_GUARD,
  async () => {
    const { k, sessionId, driver } = await startSession("ahead");
    // What a window showing the chat hears, so it marks the condensed range without a reload.
    const announced: NotificationParams<"session/condensed">[] = [];
    k.client.onNotification("session/condensed", (n: NotificationParams<"session/condensed">) => announced.push(n));
    const runs: string[] = [];
    let background = 0;
    for (let i = 0; i < MAX_TURNS && background < 2; i++) {
      const from = k.stderr.length;
      const { turnId } = await k.client.request("turn/start", { sessionId, message: message(i) });
      runs.push(turnId);
      const done = await driver.completion(turnId);
      assert.equal(done.status, "completed", `turn ${i}: ${JSON.stringify(done)}`);
      assert.ok(done.context && done.context.usedTokens <= CONTEXT, `turn ${i}: ${JSON.stringify(done.context)}`);
      // The person reads the answer: the kernel is idle, and condenses when the turn passed the threshold.
      if (crossed(done.context.usedTokens)) {
        await logLine(k, new RegExp(`background condensing of session ${sessionId} journaled`), from);
        background++;
      }
    }
    assert.equal(background, 2, "the session crossed the threshold twice and was condensed in the background each time");
    const rows = condensationRows(k.journalPath, sessionId);
    assert.deepEqual(
      rows.filter((r) => r.run_id !== null),
      [],
      "no turn condensed inside itself: every condensation was made between turns",
    );
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.trigger === "automatic"));
    const history = await k.client.request("session/history", { sessionId });
    assert.equal(history.messages.filter((m) => m.role === "user").length, runs.length, "the journal keeps every message");
    assert.ok(
      history.condensations.every((c) => c.betweenTurns === true),
      "the history says each was made between turns (the view words its marker so)",
    );
    while (announced.length < 2) await sleep(20);
    assert.deepEqual(
      announced.map((a) => [a.sessionId, a.condensation.condensationId, a.condensation.betweenTurns]),
      history.condensations.map((c) => [sessionId, c.condensationId, true]),
      "every client heard of each background condensation (session/condensed)",
    );
  },
);

it(
  "a message sent during background condensing cancels it and runs; a kernel killed during it loses nothing (issue 30, item 3)",
  HANG_GUARD,
  async () => {
    const { k, options, sessionId, driver } = await startSession("ahead-cancel");
    let i = 0;
    let cancelled = false;
    // Turn after turn until one arrives while the background summary is still being written.
    for (; i < MAX_TURNS && !cancelled; i++) {
      const from = k.stderr.length;
      const { turnId } = await k.client.request("turn/start", { sessionId, message: message(i) });
      const done = await driver.completion(turnId);
      assert.equal(done.status, "completed", `turn ${i}: ${JSON.stringify(done)}`);
      if (!done.context || !crossed(done.context.usedTokens)) continue;
      await logLine(k, new RegExp(`background condensing of session ${sessionId} started`), from);
      const before = condensationRows(k.journalPath, sessionId).length;
      const next = await k.client.request("turn/start", { sessionId, message: message(++i) });
      const nextDone = await driver.completion(next.turnId);
      assert.equal(nextDone.status, "completed", JSON.stringify(nextDone));
      const outcome = await logLine(k, new RegExp(`background condensing of session ${sessionId} (cancelled|journaled)`), from);
      cancelled = /cancelled: a turn started/.test(k.stderr[outcome]!);
      if (cancelled) {
        const made = condensationRows(k.journalPath, sessionId).slice(before);
        assert.ok(
          made.every((r) => r.run_id === next.turnId),
          `the cancelled condensing journaled nothing (only the turn itself may have): ${JSON.stringify(made)}`,
        );
      }
    }
    assert.ok(cancelled, "a turn arrived during a background condensing and cancelled it");

    // The turn above ended past the threshold again or not; either way, wait for the next background
    // condensing to start, then kill the kernel in the middle of it.
    const history = await k.client.request("session/history", { sessionId });
    const rowsBefore = condensationRows(k.journalPath, sessionId);
    let from = k.stderr.length;
    for (; ; i++) {
      from = k.stderr.length;
      const { turnId } = await k.client.request("turn/start", { sessionId, message: message(i) });
      const done = await driver.completion(turnId);
      assert.equal(done.status, "completed");
      if (done.context && crossed(done.context.usedTokens)) break;
      assert.ok(i < MAX_TURNS * 2, "the session crossed the threshold again");
    }
    await logLine(k, new RegExp(`background condensing of session ${sessionId} started`), from);
    const kept = await k.client.request("session/history", { sessionId });
    const rowsAtKill = condensationRows(k.journalPath, sessionId);
    k.child.kill("SIGKILL");
    await k.exited;
    const again = startTestKernel(options);
    kernels.push(again);
    await again.client.initialize("test", "0");
    const resumed = await again.client.request("session/history", { sessionId });
    assert.deepEqual(resumed.messages, kept.messages, "every message survives the kill");
    assert.ok(rowsAtKill.length >= rowsBefore.length && history.messages.length <= kept.messages.length);
    assert.deepEqual(condensationRows(again.journalPath, sessionId), rowsAtKill, "the killed condensing journaled nothing");
    const last = await again.client.request("turn/start", { sessionId, message: "And one more." });
    const lastDone = await new TurnDriver(again.client).completion(last.turnId);
    assert.equal(lastDone.status, "completed", JSON.stringify(lastDone));
    assert.ok(lastDone.context && lastDone.context.usedTokens <= CONTEXT);
  },
);

it(
  "with hearth.context.condenseAhead off, a session past the threshold is never condensed between turns (issue 30, item 3)",
  HANG_GUARD,
  async () => {
    const { k, sessionId, driver } = await startSession("ahead-off", { HEARTH_CONDENSE_AHEAD: "off" });
    let crossings = 0;
    for (let i = 0; i < MAX_TURNS && crossings < 2; i++) {
      const { turnId } = await k.client.request("turn/start", { sessionId, message: message(i) });
      const done = await driver.completion(turnId);
      assert.equal(done.status, "completed", `turn ${i}: ${JSON.stringify(done)}`);
      // With it on, the idle kernel starts condensing at once (the first test waits for that line).
      if (done.context && crossed(done.context.usedTokens)) {
        crossings++;
        await sleep(1_000);
      }
    }
    assert.equal(crossings, 2, "the session passed the threshold");
    assert.deepEqual(
      k.stderr.filter((l) => /background condensing/.test(l)),
      [],
      "no background condensing started",
    );
    assert.deepEqual(
      condensationRows(k.journalPath, sessionId).filter((r) => r.run_id === null),
      [],
      "no condensation was journaled between turns",
    );
  },
);

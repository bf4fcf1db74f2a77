// The prefill after condensing ahead of need (issue 30, item 3), through a real kernel on the synthetic
// chat model in a 2,048-token context. Invariants: once the idle kernel has journaled a condensation,
// it evaluates the next turn's prompt before its message into the session's KV cache, so that turn
// evaluates only its own new tokens; and the prefill changes nothing the model is shown: the turn's
// prompt is the same tokens, and its greedy answer the same, as on a kernel that never prefilled it
// (a second kernel on a copy of the journal, with no saved state and condensing ahead off).
import assert from "node:assert/strict";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import type { PrefillStats, RoundStats } from "../../../sidecar/inference/llama/adapterOptions.js";
import { CONDENSE_AHEAD_SHARE } from "../../../sidecar/kernel/turns/backgroundCondensing.js";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { restartableKernelOptions, startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
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

/** The JSON the kernel logs after `marker` ("llama round ", "llama prefill "), for one session. */
function logged<T extends { sessionKey: string }>(k: TestKernel, marker: string, sessionId: string): T[] {
  return k.stderr
    .filter((l) => l.includes(marker))
    .map((l) => JSON.parse(l.slice(l.indexOf(marker) + marker.length)) as T)
    .filter((s) => s.sessionKey === sessionId);
}

/** Resolves with the first log line matching `pattern` beyond the first `from` lines. */
async function logLine(k: TestKernel, pattern: RegExp, from = 0): Promise<string> {
  for (;;) {
    const line = k.stderr.find((l, i) => i >= from && pattern.test(l));
    if (line) return line;
    if (k.child.exitCode !== null) throw new Error(`the kernel exited waiting for ${pattern}: ${k.stderr.slice(-5).join("\n")}`);
    await sleep(20);
  }
}

const message = (i: number) => `Turn ${i}: please remember that box ${i} holds ${i * 7} marbles and a note about item ${i}.`;

const drivers = new Map<TestKernel, TurnDriver>();

async function completed(k: TestKernel, sessionId: string, text: string) {
  const driver = drivers.get(k) ?? new TurnDriver(k.client);
  drivers.set(k, driver);
  const { turnId } = await k.client.request("turn/start", { sessionId, message: text });
  const done = await driver.completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  return { done, answer: driver.answerText(turnId) };
}

it(
  "after a condensation made ahead of need, the next turn evaluates only its new tokens and is shown the prompt a kernel without the prefill shows (issue 30, item 3)",
  HANG_GUARD,
  async () => {
    const models = ensureFixtureModels();
    const options = restartableKernelOptions("prefill-ahead", ENV);
    const k = startTestKernel(options);
    kernels.push(k);
    await k.client.initialize("test", "0");
    const { sessionId } = await k.client.request("session/create", { model: models.chat, options: { maxTokens: 24 } });

    // Turns until one passes the threshold; the person reads the answer while the kernel condenses and prefills.
    let outcome = "";
    for (let i = 0; i < MAX_TURNS && !outcome; i++) {
      const from = k.stderr.length;
      const { done } = await completed(k, sessionId, message(i));
      if (done.context && done.context.usedTokens >= CONTEXT * CONDENSE_AHEAD_SHARE) {
        await logLine(k, new RegExp(`background condensing of session ${sessionId} journaled`), from);
        outcome = await logLine(k, new RegExp(`background prefill of session ${sessionId} (evaluated|cancelled|failed)`), from);
      }
    }
    assert.match(outcome, /evaluated/, `the prefill ran to its end: ${outcome}`);
    const [prefill] = logged<PrefillStats>(k, "llama prefill ", sessionId);
    assert.ok(prefill && !prefill.cancelled, JSON.stringify(prefill));
    assert.equal(prefill.reusedTokens + prefill.evaluatedTokens, prefill.prefixTokens);
    assert.ok(prefill.evaluatedTokens > 0, "the summary and the kept turn were new to the cache: the prefill evaluated them");

    // A kernel that never prefilled: the journal as it is now, no saved KV state, no condensing ahead.
    const coldJournal = path.join(tempDir("prefill-cold"), "journal.sqlite");
    const source = new Database(k.journalPath, { readonly: true });
    await source.backup(coldJournal);
    source.close();
    const cold = startTestKernel({
      workspace: options.workspace,
      journalPath: coldJournal,
      env: { ...ENV, HEARTH_HOME: path.join(path.dirname(coldJournal), "home"), HEARTH_CONDENSE_AHEAD: "off" },
    });
    kernels.push(cold);
    await cold.client.initialize("test", "0");

    const next = "And where is the note about box 3?";
    const warm = await completed(k, sessionId, next);
    const fresh = await completed(cold, sessionId, next);
    const w = logged<RoundStats>(k, "llama round ", sessionId).at(-1)!;
    const c = logged<RoundStats>(cold, "llama round ", sessionId).at(-1)!;
    assert.equal(w.promptDigest, c.promptDigest, "the prefill changed nothing the model is shown: the same prompt tokens");
    assert.equal(w.promptTokens, c.promptTokens);
    assert.equal(warm.answer, fresh.answer, "and the same greedy answer");
    assert.equal(w.reusedTokens, prefill.prefixTokens, "the turn found everything before its message in the cache");
    assert.equal(w.prefillEvaluatedTokens, w.promptTokens - prefill.prefixTokens, "and evaluated only its own new tokens");
    assert.equal(c.prefillEvaluatedTokens, c.promptTokens, "without the prefill the whole condensed prompt is evaluated");
    assert.ok(
      w.prefillEvaluatedTokens < prefill.evaluatedTokens,
      `the turn evaluated ${w.prefillEvaluatedTokens} tokens instead of the ${prefill.evaluatedTokens} the prefill did ahead of it`,
    );
  },
);

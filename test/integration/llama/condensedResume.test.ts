// Saved KV state after condensing (issue 13, item 5): condensing changes the prompt's prefix, so state
// saved for the history before it may be reused only up to where the condensed prompt departs from it.
// A kernel restarted after `session/compact` (cleanly, or killed before it could save again) must give
// the turn the condensed history, and an answer identical to a kernel that has no saved state at all
// and evaluates that history from scratch (greedy), with the restore covering only the shared prefix.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

interface RoundLog {
  sessionKey: string;
  promptTokens: number;
  restoredTokens: number;
  reusedTokens: number;
  prefillEvaluatedTokens: number;
}
const rounds = (k: TestKernel): RoundLog[] =>
  k.stderr.filter((l) => l.includes("llama round ")).map((l) => JSON.parse(l.slice(l.indexOf("llama round ") + 12)) as RoundLog);

async function start(env: Record<string, string>, files: { workspace: string; journalPath: string }) {
  const k = startTestKernel({ ...files, env: { HEARTH_THREADS: "1", HEARTH_TOOLS: "read_file", ...env } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  return { k, driver: new TurnDriver(k.client) };
}

async function turn(k: TestKernel, driver: TurnDriver, sessionId: string, message: string): Promise<string> {
  const { turnId } = await k.client.request("turn/start", { sessionId, message });
  const done = await driver.completion(turnId);
  assert.equal(done.status, "completed", JSON.stringify(done));
  return driver.answerText(turnId);
}

/** The journal as it is now (the kernel that wrote it has exited): a cold kernel resumes from the copy. */
function copyJournal(from: string, to: string): void {
  for (const suffix of ["", "-wal", "-shm"]) if (fs.existsSync(from + suffix)) fs.copyFileSync(from + suffix, to + suffix);
}

for (const ending of ["kernel/shutdown", "SIGKILL"] as const) {
  it(`after session/compact and a restart (${ending}), saved KV state serves only the prefix the condensed history shares with it (issue 13, item 5)`, async () => {
    const models = ensureFixtureModels();
    const root = tempDir("condensed-kv");
    const files = { workspace: path.join(root, "ws"), journalPath: path.join(root, "journal.sqlite") };
    fs.mkdirSync(files.workspace);
    const home = { HEARTH_HOME: path.join(root, "home") };

    // 1. A conversation whose full history is saved as KV state when its kernel stops.
    let { k, driver } = await start(home, files);
    const { sessionId } = await k.client.request("session/create", { model: models.chat, options: { maxTokens: 8, temperature: 0 } });
    // Long messages, so the history condensed is longer than any summary the random model writes.
    const note = (i: number) => `Turn ${i}: box ${i} holds ${i * 7} marbles; remember the note about item ${i} and its colour. `.repeat(4);
    for (let i = 0; i < 5; i++) await turn(k, driver, sessionId, note(i));
    const fullHistoryTokens = rounds(k).at(-1)!.promptTokens;
    await k.client.request("kernel/shutdown", undefined);
    await k.exited;
    const statesBefore = fs.readdirSync(path.join(home.HEARTH_HOME, "kv-state")).filter((f) => f.endsWith(".json"));
    assert.ok(statesBefore.length >= 1, "the stopping kernel saved the session's KV state");

    // 2. Another kernel condenses it, then stops cleanly (saving again) or is killed (the saved state is the old one).
    ({ k, driver } = await start(home, files));
    const { condensation } = await k.client.request("session/compact", { sessionId });
    assert.ok(condensation?.summary, "session/compact condensed the session");
    if (ending === "kernel/shutdown") {
      await k.client.request("kernel/shutdown", undefined);
      await k.exited;
    } else {
      k.child.kill("SIGKILL");
      await k.exited;
      const statesAfter = fs.readdirSync(path.join(home.HEARTH_HOME, "kv-state")).filter((f) => f.endsWith(".json"));
      assert.deepEqual(statesAfter.sort(), statesBefore.sort(), "the killed kernel left the pre-condensing state in place");
    }
    const coldFiles = { workspace: files.workspace, journalPath: path.join(root, "journal-cold.sqlite") };
    copyJournal(files.journalPath, coldFiles.journalPath);

    // 3. The resumed turn, with the saved state, and the same turn on a kernel without any.
    const message = "And what was in box 2?";
    ({ k, driver } = await start(home, files));
    const warm = await turn(k, driver, sessionId, message);
    const [resumed] = rounds(k).filter((r) => r.sessionKey === sessionId);
    const cold = await start({ HEARTH_HOME: path.join(root, "home-cold") }, coldFiles);
    const fresh = await turn(cold.k, cold.driver, sessionId, message);
    const [full] = rounds(cold.k).filter((r) => r.sessionKey === sessionId);
    assert.ok(resumed && full, `no round logged:\n${k.stderr.join("\n")}`);

    // The condensed history, not the stale one: the same prompt as the cold kernel renders from the journal.
    assert.equal(resumed.promptTokens, full.promptTokens, "the resumed turn renders what the journal's condensed view gives");
    assert.ok(resumed.promptTokens < fullHistoryTokens, `${resumed.promptTokens} tokens after condensing, ${fullHistoryTokens} before`);
    assert.equal(full.restoredTokens, 0);
    assert.equal(full.prefillEvaluatedTokens, full.promptTokens, "the cold kernel evaluates the whole condensed prompt");
    // Whatever state was restored, only what matches the condensed prompt is kept and the rest is evaluated.
    assert.ok(resumed.reusedTokens <= resumed.restoredTokens, JSON.stringify(resumed));
    assert.equal(resumed.reusedTokens + resumed.prefillEvaluatedTokens, resumed.promptTokens, JSON.stringify(resumed));
    assert.ok(resumed.prefillEvaluatedTokens > 0, "the summary is new to every saved state: it is evaluated");
    // Condensing leaves the system prompt and tools as they were, so that much comes from saved state:
    // the summary is written apart from the session's own KV cache and does not replace its saved state.
    assert.ok(resumed.restoredTokens > 0, `nothing restored: ${JSON.stringify(resumed)}`);
    assert.equal(warm, fresh, "the restored cache answers exactly as a full evaluation of the condensed history");
  });
}

it("the turn after session/compact reuses the KV cache up to where the condensed history departs from it (issue 13, item 5)", async () => {
  const models = ensureFixtureModels();
  const root = tempDir("condensed-kv");
  const files = { workspace: path.join(root, "ws"), journalPath: path.join(root, "journal.sqlite") };
  fs.mkdirSync(files.workspace);
  const { k, driver } = await start({ HEARTH_HOME: path.join(root, "home") }, files);
  const { sessionId } = await k.client.request("session/create", { model: models.chat, options: { maxTokens: 8, temperature: 0 } });
  for (let i = 0; i < 3; i++) await turn(k, driver, sessionId, `Turn ${i}: box ${i} holds ${i * 7} marbles. `.repeat(6));
  const first = rounds(k).find((r) => r.sessionKey === sessionId)!;
  const { condensation } = await k.client.request("session/compact", { sessionId });
  assert.ok(condensation?.summary);
  await turn(k, driver, sessionId, "And what was in box 2?");
  const after = rounds(k)
    .filter((r) => r.sessionKey === sessionId)
    .at(-1)!;
  // The first round's prompt is the system prompt and tools (most of it) and one message: condensing keeps
  // the system prompt and tools, so their KV cache serves the turn after it.
  assert.ok(
    after.reusedTokens > first.promptTokens / 2,
    `reused ${after.reusedTokens} tokens after condensing: ${JSON.stringify({ first, after })}`,
  );
  assert.equal(after.restoredTokens, 0);
});

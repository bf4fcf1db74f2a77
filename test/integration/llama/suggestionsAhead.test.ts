// Where a suggestion comes from, through a real kernel on the fill-in-the-middle fixture (issue 31,
// item 2): typing the characters a suggestion showed is answered from the cache with no request; the
// suggestion after an accept is computed ahead, so the accept needs no request of its own; a keystroke
// that needs the model cancels the ahead request for another window, which then leaves nothing behind.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { Suggestions } from "../../../extension/completions/suggestions.js";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

let k: TestKernel;
before(async () => {
  k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: "2048" } });
  await k.client.initialize("test", "0");
  await k.client.request("model/load", { spec: ensureFixtureModels().fim });
});
after(async () => {
  await k?.stop();
});

/** The kernel's completion/infill, counting the requests that reached it and those it answered. */
function kernelInfill() {
  const calls = { sent: 0, answered: 0, cancelled: 0 };
  const suggestions = new Suggestions(async (window, signal) => {
    calls.sent++;
    try {
      const r = await k.client.request("completion/infill", { ...window, maxTokens: 16 }, signal);
      calls.answered++;
      return r.text;
    } catch (e) {
      if (signal.aborted) calls.cancelled++;
      throw e;
    }
  });
  return { suggestions, calls };
}

const text = "function add(a: number, b: number): number {\n  \n}\n";
const cursor = text.indexOf("{\n  ") + 4;
const insert = (chars: string) => text.slice(0, cursor) + chars + text.slice(cursor);
const signal = () => new AbortController().signal;

it("shows the rest of a suggestion while the person types it, without asking the model", async () => {
  const { suggestions, calls } = kernelInfill();
  const first = await suggestions.suggest(suggestions.known(text, cursor).window, signal());
  assert.deepEqual(first, { middle: FIM_MODEL_MIDDLE, from: "model" });
  const typed = suggestions.known(insert("retu"), cursor + 4);
  assert.equal(typed.middle, FIM_MODEL_MIDDLE.slice(4));
  assert.deepEqual(await suggestions.suggest(typed.window, signal()), { middle: FIM_MODEL_MIDDLE.slice(4), from: "cache" });
  assert.equal(calls.sent, 1, "one request for the suggestion and the keystrokes that typed it");
});

it("computes the suggestion after an accept ahead, and the accept is answered by it", async () => {
  const { suggestions, calls } = kernelInfill();
  const first = await suggestions.suggest(suggestions.known(text, cursor).window, signal());
  suggestions.computeAhead(text, cursor, first.middle);
  // Typing into the suggestion offers its rest, whose acceptance is the same document: no second request.
  suggestions.computeAhead(insert("re"), cursor + 2, first.middle.slice(2));
  const accepted = insert(first.middle);
  const next = await suggestions.suggest(suggestions.known(accepted, cursor + first.middle.length).window, signal());
  assert.notEqual(next.from, "model", "the ahead request answered the accept");
  assert.equal(calls.sent, 2);
  const direct = await k.client.request("completion/infill", {
    ...suggestions.known(accepted, cursor + first.middle.length).window,
    maxTokens: 16,
  });
  assert.equal(next.middle, direct.text, "the same middle a request of its own gets");
});

it("cancels the ahead request when a keystroke needs the model for another window", async () => {
  const { suggestions, calls } = kernelInfill();
  // A long file: the ahead request evaluates ~1,000 tokens, so it is still running when the keystroke comes.
  const long = `${Array.from({ length: 60 }, (_, i) => `let v${i} = ${i};`).join("\n")}\n${text}`;
  const at = long.indexOf("{\n  ") + 4;
  suggestions.computeAhead(long, at, FIM_MODEL_MIDDLE);
  const typed = `${long.slice(0, at)}// x${long.slice(at)}`;
  const r = await suggestions.suggest(suggestions.known(typed, at + 4).window, signal());
  assert.equal(r.from, "model");
  assert.equal(calls.cancelled, 1, "the ahead request was cancelled");
  const acceptedAt = at + FIM_MODEL_MIDDLE.length;
  const accepted = `${long.slice(0, at)}${FIM_MODEL_MIDDLE}${long.slice(at)}`;
  assert.equal(suggestions.known(accepted, acceptedAt).middle, null, "a cancelled ahead request leaves nothing in the cache");
});

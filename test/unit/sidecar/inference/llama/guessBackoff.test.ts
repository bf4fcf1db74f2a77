// The back-off's schedule (guessBackoff.ts): a generation starts with a narrow probe, judged alone; a
// probe or window of misses pauses guessing, each pause after another without a good window between
// them is twice as long up to a cap, a good window widens the steps and ends the doubling, and a new
// prompt starts over. inputLookup.test.ts runs it with the real predictor.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GUESS_WINDOW, GuessBackoff, PROBE_GUESSES, PROBE_WINDOW } from "../../../../../sidecar/inference/llama/guessBackoff.js";

const WIDE = Number.POSITIVE_INFINITY;

/** Steps until the back-off lets a step guess again (the pause's length). */
function pauseLength(b: GuessBackoff): number {
  let steps = 0;
  while (b.allowance() === 0) steps++;
  return steps;
}

/** A back-off past its first probe, guessing wide. */
function widened(): GuessBackoff {
  const b = new GuessBackoff();
  b.record(PROBE_WINDOW, 0);
  return b;
}

describe("GuessBackoff", () => {
  it("starts a generation with narrow steps, widened by a probe with a quarter of its guesses confirmed", () => {
    const b = new GuessBackoff();
    assert.equal(b.allowance(), PROBE_GUESSES);
    b.record(1, PROBE_GUESSES - 1);
    assert.equal(b.allowance(), PROBE_GUESSES, "a probe not yet judged goes on narrow");
    b.record(1, PROBE_GUESSES - 1);
    assert.equal(b.allowance(), WIDE);
  });

  it("pauses after a probe of misses at the start: an answer that copies nothing pays one narrow window", () => {
    const b = new GuessBackoff();
    b.record(0, PROBE_WINDOW - 1);
    assert.equal(b.allowance(), PROBE_GUESSES);
    b.record(0, 1);
    assert.equal(pauseLength(b), 32);
  });

  it("guesses wide until a whole window was judged", () => {
    const b = widened();
    b.record(0, GUESS_WINDOW - 1);
    assert.equal(b.allowance(), WIDE);
  });

  it("pauses after a window of misses, doubling each pause after a probe of misses up to 1024 steps", () => {
    const b = widened();
    const pauses = [];
    b.record(0, GUESS_WINDOW);
    pauses.push(pauseLength(b));
    for (let i = 0; i < 7; i++) {
      assert.equal(b.allowance(), PROBE_GUESSES, "after a pause, a narrow probe");
      b.record(0, PROBE_WINDOW);
      pauses.push(pauseLength(b));
    }
    assert.deepEqual(pauses, [32, 64, 128, 256, 512, 1024, 1024, 1024]);
  });

  it("judges a probe on its own guesses, not on the misses that caused the pause", () => {
    const b = widened();
    b.record(0, GUESS_WINDOW);
    pauseLength(b);
    b.record(PROBE_WINDOW / 4, 0);
    assert.equal(b.allowance(), PROBE_GUESSES, "two confirmed guesses are not yet a judged probe");
    b.record(0, (3 * PROBE_WINDOW) / 4);
    assert.equal(b.allowance(), WIDE, "a quarter of the probe confirmed widens the steps");
    b.record(0, GUESS_WINDOW);
    assert.equal(pauseLength(b), 32, "a good probe ended the doubling: the next miss pauses for the first length");
  });

  it("keeps guessing wide while a quarter of the window is confirmed", () => {
    const b = widened();
    b.record(GUESS_WINDOW / 4, (3 * GUESS_WINDOW) / 4);
    assert.equal(b.allowance(), WIDE);
  });

  it("slides: the misses after a copy pause it once they are most of the window", () => {
    const b = widened();
    b.record(GUESS_WINDOW, 0);
    b.record(0, GUESS_WINDOW / 2);
    assert.equal(b.allowance(), WIDE, "half the window still confirmed");
    b.record(0, GUESS_WINDOW / 2);
    assert.equal(pauseLength(b), 32);
  });

  it("starts over on a new prompt", () => {
    const b = widened();
    b.record(0, GUESS_WINDOW);
    b.clear();
    assert.equal(b.allowance(), PROBE_GUESSES);
    b.record(0, PROBE_WINDOW);
    assert.equal(pauseLength(b), 32);
  });
});

// The back-off's schedule (guessBackoff.ts): a window of misses pauses guessing, each pause after
// another without a good window between them is twice as long up to a cap, a good window ends the
// doubling, and a new prompt starts over. inputLookup.test.ts runs it with the real predictor.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GUESS_WINDOW, GuessBackoff } from "../../../../../sidecar/inference/llama/guessBackoff.js";

/** Steps until the back-off lets a step guess again (the pause's length). */
function pauseLength(b: GuessBackoff): number {
  let steps = 0;
  while (!b.mayGuess()) steps++;
  return steps;
}

describe("GuessBackoff", () => {
  it("guesses on until a whole window was judged", () => {
    const b = new GuessBackoff();
    b.record(0, GUESS_WINDOW - 1);
    assert.equal(b.mayGuess(), true);
  });

  it("pauses after a window of misses, doubling each pause after another up to 1024 steps, and probes after each", () => {
    const b = new GuessBackoff();
    const pauses = [];
    for (let i = 0; i < 8; i++) {
      b.record(0, GUESS_WINDOW);
      pauses.push(pauseLength(b));
    }
    assert.deepEqual(pauses, [32, 64, 128, 256, 512, 1024, 1024, 1024]);
  });

  it("judges a probe on its own guesses, not on the misses that caused the pause", () => {
    const b = new GuessBackoff();
    b.record(0, GUESS_WINDOW);
    pauseLength(b);
    b.record(GUESS_WINDOW / 2, 0);
    assert.equal(b.mayGuess(), true, "half a window of confirmed guesses is not yet judged");
  });

  it("keeps guessing while a quarter of the window is confirmed, and a good window ends the doubling", () => {
    const b = new GuessBackoff();
    b.record(0, GUESS_WINDOW);
    assert.equal(pauseLength(b), 32);
    b.record(GUESS_WINDOW / 4, (3 * GUESS_WINDOW) / 4);
    assert.equal(b.mayGuess(), true);
    b.record(0, GUESS_WINDOW);
    assert.equal(pauseLength(b), 32, "the next miss pauses for the first length again");
  });

  it("slides: the misses after a copy pause it once they are most of the window", () => {
    const b = new GuessBackoff();
    b.record(GUESS_WINDOW, 0);
    b.record(0, GUESS_WINDOW / 2);
    assert.equal(b.mayGuess(), true, "half the window still confirmed");
    b.record(0, GUESS_WINDOW / 2);
    assert.equal(pauseLength(b), 32);
  });

  it("starts over on a new prompt", () => {
    const b = new GuessBackoff();
    b.record(0, GUESS_WINDOW);
    b.clear();
    assert.equal(b.mayGuess(), true);
    b.record(0, GUESS_WINDOW);
    assert.equal(pauseLength(b), 32);
  });
});

// When input lookup's guesses keep missing, stop offering them for a while (issue 30, item 1). A guess
// costs a position in the step's batch and a sampling of its logits, kept or not, and a refuted one is
// erased from the KV cache again; an answer that copies nothing can still find 2-token runs of its
// prompt to guess from (the tool fixture's random weights at temperature 1 repeat a run of the prompt
// and depart from it: grammarKeywords.test.ts took 1.12-1.29x as long with guesses on every step). The
// predictor cannot tell a copying answer from another beforehand, so it judges by results: it keeps the
// outcomes of the last GUESS_WINDOW guesses evaluated and, when fewer than MIN_CONFIRMED of them were
// confirmed, offers none for a pause. Each pause that follows another without a good window between
// them is twice as long, up to MAX_PAUSE steps; after a pause it guesses again (a probe), so an answer
// that starts copying later (an edit's newText after its prose) gets its guesses back within a pause.
// A generation starts with a probe too: an answer that copies nothing pays for one narrow window only.
//
// The numbers, against test/bench/inputLookup.ts (the copy fixture: a copying edit confirms 95.8% of
// its guesses; an edit whose prompt makes every guess miss evaluated 7.4 guesses a step, 0.6 with this):
// - GUESS_WINDOW 16: two steps of 8 guesses, so a missing streak stops within two steps, while one
//   missed step of a copy (its first, before the copy is found) leaves half the window confirmed.
// - MIN_CONFIRMED 25%: a confirmed guess saves a whole step, a refuted one costs a fraction of one; a
//   copy confirms over 90% and a miss streak about 0%, so the line sits well clear of both.
// - FIRST_PAUSE 32, doubling to MAX_PAUSE 1024: an answer that starts copying waits at most one pause
//   (32 steps after one miss streak, 1024 after six).
// - PROBE_GUESSES 4 a step, PROBE_WINDOW 8: a probe is two steps half as wide as a guessing step, so
//   a reply that never copies pays 8 positions per probe instead of 16 (the bench's all-miss edit is
//   27 tokens long: its whole cost is the first window); two confirmed guesses of the eight (a copy
//   confirms over 90%) widen the steps and end the doubling.
/** Guesses a judgement covers once guesses were confirmed (exported for the tests that count guesses). */
export const GUESS_WINDOW = 16;
/** Guesses a step may offer in a probe: at the start of a generation and after a pause. */
export const PROBE_GUESSES = 4;
/** Guesses a probe's judgement covers. */
export const PROBE_WINDOW = 2 * PROBE_GUESSES;
const MIN_CONFIRMED = 0.25;
const FIRST_PAUSE = 32;
const MAX_PAUSE = 1024;

export class GuessBackoff {
  /** Whether each of the last guesses evaluated was confirmed, oldest first; at most GUESS_WINDOW. */
  private outcomes: boolean[] = [];
  /** Steps left in the current pause. */
  private pauseLeft = 0;
  /** Length of the last pause; 0 once a window was good. */
  private lastPause = 0;
  /** Probing: no window has been good since the start or the last pause. */
  private narrow = true;

  /** Starts over: a new prompt may be one the answer copies. */
  clear(): void {
    this.outcomes = [];
    this.pauseLeft = 0;
    this.lastPause = 0;
    this.narrow = true;
  }

  /** The outcome of the guesses evaluated since the last call: confirmed ones, then refuted ones. */
  record(confirmed: number, refuted: number): void {
    if (confirmed + refuted === 0) return;
    this.outcomes.push(...Array<boolean>(confirmed).fill(true), ...Array<boolean>(refuted).fill(false));
    const window = this.narrow ? PROBE_WINDOW : GUESS_WINDOW;
    if (this.outcomes.length < window) return;
    this.outcomes = this.outcomes.slice(-window);
    if (this.outcomes.filter(Boolean).length >= MIN_CONFIRMED * window) {
      this.lastPause = 0;
      // The wide steps are judged on their own guesses, as the probe was.
      if (this.narrow) this.outcomes = [];
      this.narrow = false;
      return;
    }
    this.lastPause = this.lastPause === 0 ? FIRST_PAUSE : Math.min(2 * this.lastPause, MAX_PAUSE);
    this.pauseLeft = this.lastPause;
    this.narrow = true;
    // The probe after the pause is judged on its own guesses, not on the ones that caused the pause.
    this.outcomes = [];
  }

  /** How many guesses this step may offer: none in a pause (the step counts it down), few in a probe. */
  allowance(): number {
    if (this.pauseLeft > 0) {
      this.pauseLeft--;
      return 0;
    }
    return this.narrow ? PROBE_GUESSES : Number.POSITIVE_INFINITY;
  }
}

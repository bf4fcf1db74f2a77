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
//
// The numbers, against test/bench/inputLookup.ts (the copy fixture: a copying edit confirms 95.8% of
// its guesses; an edit whose prompt makes every guess miss evaluated 7.4 guesses a step, 0.6 with this):
// - GUESS_WINDOW 16: two steps of 8 guesses, so a missing streak stops within two steps, while one
//   missed step of a copy (its first, before the copy is found) leaves half the window confirmed.
// - MIN_CONFIRMED 25%: a confirmed guess saves a whole step, a refuted one costs a fraction of one; a
//   copy confirms over 90% and a miss streak about 0%, so the line sits well clear of both.
// - FIRST_PAUSE 32, doubling to MAX_PAUSE 1024: a probe costs one window (two wide steps), about 6% of
//   the steps at the first pause and 0.2% at the cap over a long reply that never copies, while an
//   answer that starts copying waits at most one pause (32 steps after one miss streak, 1024 after six).
/** Guesses a judgement covers (exported for the tests that count guesses). */
export const GUESS_WINDOW = 16;
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

  /** Starts over: a new prompt may be one the answer copies. */
  clear(): void {
    this.outcomes = [];
    this.pauseLeft = 0;
    this.lastPause = 0;
  }

  /** The outcome of the guesses evaluated since the last call: confirmed ones, then refuted ones. */
  record(confirmed: number, refuted: number): void {
    if (confirmed + refuted === 0) return;
    this.outcomes.push(...Array<boolean>(confirmed).fill(true), ...Array<boolean>(refuted).fill(false));
    if (this.outcomes.length < GUESS_WINDOW) return;
    this.outcomes = this.outcomes.slice(-GUESS_WINDOW);
    if (this.outcomes.filter(Boolean).length >= MIN_CONFIRMED * GUESS_WINDOW) {
      this.lastPause = 0;
      return;
    }
    this.lastPause = this.lastPause === 0 ? FIRST_PAUSE : Math.min(2 * this.lastPause, MAX_PAUSE);
    this.pauseLeft = this.lastPause;
    // The probe after the pause is judged on its own guesses, not on the ones that caused the pause.
    this.outcomes = [];
  }

  /** Whether this step may offer guesses; a step in a pause counts it down. */
  mayGuess(): boolean {
    if (this.pauseLeft === 0) return true;
    this.pauseLeft--;
    return false;
  }
}

// The click that decides one proposal must not decide the next (issue 25 item 9). After Accept or
// Reject the next proposal of the batch is drawn within milliseconds, and its top lenses sit exactly
// where the last ones were: the second click of a double click (or a second Ctrl+Enter) would
// accept it unseen. Delaying the lenses would only move the race; refusing a decision on another
// proposal that comes within GUARD_MS of the last one closes it whatever the timing of the drawing.
// Pure (the time is passed in), so it is unit-tested.

/** Longer than the usual double-click interval (500 ms on most systems), short enough not to be felt. */
export const GUARD_MS = 600;

export class DecisionGuard {
  private last: { callId: string; at: number } | undefined;

  /** Whether a decision on `callId` at `now` (ms) counts; a counted one starts a new guard window. */
  allows(callId: string, now: number): boolean {
    const last = this.last;
    if (last && last.callId !== callId && now - last.at < GUARD_MS) return false;
    this.last = { callId, at: now };
    return true;
  }
}

// The key that decides one proposal must not decide the next (issue 25 item 9). After Accept or
// Reject by a key (Ctrl+Enter) the next proposal may be drawn in the editor that has the focus within
// milliseconds: a second press, or a held key, would decide it unseen. A key has no place on the
// screen, so this guard goes by time: a key decision on another proposal within GUARD_MS of the last
// one is refused. (A click goes by place: proposalLenses.ts.) Pure (the time is passed in), so it is unit-tested.

/** Longer than a quick second press (a double click's 500 ms on most systems), short enough not to be felt. */
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

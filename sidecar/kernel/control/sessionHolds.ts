// Sessions held by work that is not a run (issue 23, item 9: session/compact): while held, no run of
// the session is admitted, as a run holds its session against a second one. Process-local on purpose:
// the work that holds a session dies with the kernel, and so does its hold.
import { ErrorCode, HearthError } from "../../../shared/errors.js";

export class SessionHolds {
  private readonly held = new Map<string, string>();

  /** Holds `sessionId` for `what` ("being compacted"); returns the release. Refused when it is held already. */
  hold(sessionId: string, what: string): () => void {
    this.assertFree(sessionId);
    this.held.set(sessionId, what);
    return () => void this.held.delete(sessionId);
  }

  /** Throws a Conflict naming what holds the session, and when to try again. */
  assertFree(sessionId: string): void {
    const what = this.held.get(sessionId);
    if (what !== undefined)
      throw new HearthError(ErrorCode.Conflict, `refused: session ${sessionId} is ${what}; try again once that has finished`);
  }
}

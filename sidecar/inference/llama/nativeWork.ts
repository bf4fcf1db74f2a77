// A round's native work outlives a cancel (issue 16, item 5): node-llama-cpp finishes a batch it has
// started whatever the abort signal says, so the round answers the cancel at once and its session
// waits, through `NativeWork.pending`, until that work has ended.
import { untilAborted as untilSignalAborts } from "../../agent/cancellation.js";

/** The native work of a round still running, which its session's lock waits for. */
export interface NativeWork {
  pending: Promise<unknown>;
}

/**
 * `work`, or its signal's reason as soon as the signal aborts (the agent's `untilAborted`): the caller
 * gets control back at once while `work` goes on to its end, recorded in `native` so the session is
 * not used before then.
 */
export function untilAborted<T>(native: NativeWork, work: Promise<T>, signal: AbortSignal): Promise<T> {
  native.pending = work;
  if (signal.aborted) work.catch(() => undefined);
  return untilSignalAborts(work, signal);
}

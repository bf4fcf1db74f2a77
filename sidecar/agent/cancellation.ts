// Cancellation for the turn loop. Cancellation wins ties (harness #22): whenever a
// step settles while the turn's signal is aborted, the step counts as cancelled.
export class TurnCancelled extends Error {
  constructor(readonly detail = "the turn was cancelled") {
    super(detail);
    this.name = "TurnCancelled";
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new TurnCancelled();
}

/**
 * Awaits `work` unless the signal fires first. Only for effect-free work (approval questions,
 * proposals): the abandoned promise's outcome is observed and dropped, never left unhandled.
 * Effectful work is always awaited to completion instead (harness #22).
 */
export async function raceCancellation<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  throwIfCancelled(signal);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new TurnCancelled());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => undefined);
  try {
    const value = await Promise.race([work, aborted]);
    throwIfCancelled(signal); // a tie goes to cancellation
    return value;
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

/**
 * `work`'s result, or the signal's reason as soon as the signal aborts: the caller gets control back
 * at once while `work` is left to settle alone. Unlike `raceCancellation`, the rejection is the
 * signal's own reason, and a `work` abandoned before it began is not observed here.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A signal that never fires: what a FinishOnceStarted tool sees, so it runs to its terminal result. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

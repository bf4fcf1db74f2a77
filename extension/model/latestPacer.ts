// Passes on at most one value per interval, and always the latest: a value that arrives inside the
// interval is held and delivered when the interval ends, so the last one of a burst is never lost.
// (Dropping it was a defect: a download whose chunks all arrived within 200 ms and whose last
// connection then stalled showed the first chunk's progress for ever; firstRun e2e (e) timed out
// waiting for "more than half the download" in CI at 5ca0c77.)
export class LatestPacer<T> {
  private lastAt = Number.NEGATIVE_INFINITY;
  private held: { value: T } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly deliver: (value: T) => void,
  ) {}

  /** Delivers `value` now when `urgent` or the interval has passed; otherwise at the interval's end (a later push replaces it). */
  push(value: T, urgent = false): void {
    const wait = this.lastAt + this.intervalMs - Date.now();
    if (urgent || wait <= 0) {
      this.cancel();
      this.send(value);
      return;
    }
    this.held = { value };
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const held = this.held;
      this.held = null;
      if (held) this.send(held.value);
    }, wait);
  }

  /** Forgets a held value (what it reported is over: the load finished, failed or was cancelled). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held = null;
  }

  private send(value: T): void {
    this.lastAt = Date.now();
    this.deliver(value);
  }
}

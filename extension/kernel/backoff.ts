// Restart delays for a crashed kernel: exponential, capped, and forgiven after a healthy period,
// so one crash an hour restarts at once while a crash loop slows down instead of spinning.

export interface BackoffOptions {
  initialMs: number;
  factor: number;
  maxMs: number;
  /** A kernel that stayed up this long resets the sequence to initialMs. */
  healthyMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, factor: 2, maxMs: 30_000, healthyMs: 60_000 };

export class Backoff {
  private failures = 0;

  constructor(private readonly opts: BackoffOptions = DEFAULT_BACKOFF) {}

  /** The delay before the next restart, given how long the crashed kernel had been up. */
  next(uptimeMs: number): number {
    if (uptimeMs >= this.opts.healthyMs) this.failures = 0;
    const delay = Math.min(this.opts.maxMs, this.opts.initialMs * this.opts.factor ** this.failures);
    this.failures += 1;
    return delay;
  }

  /** A restart asked for by the person starts afresh. */
  reset(): void {
    this.failures = 0;
  }
}

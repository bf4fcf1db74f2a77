// Serialises work per session key: a round, a state save and a close of the same session never overlap,
// so when one settles nothing else is touching that session's sequence (harness #18).
export class SessionLocks {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly running = new Map<string, number>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    const result = prev.catch(() => undefined).then(work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      const n = (this.running.get(key) ?? 1) - 1;
      if (n === 0) this.running.delete(key);
      else this.running.set(key, n);
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Resolves once the work queued for `key` so far has ended (at once when there is none). */
  async idle(key: string): Promise<void> {
    await this.tails.get(key);
  }

  busy(key: string): boolean {
    return this.running.has(key);
  }
}

// Events, after VS Code's base/common/event.ts, kept to what Hearth uses: an Emitter owns an event,
// fires it, and drops its listeners when disposed; `event` is what it hands out to subscribers.
import { type IDisposable, toDisposable } from "./lifecycle.js";

/** Subscribes `listener`; disposing what it returns unsubscribes. */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

export class Emitter<T> implements IDisposable {
  // One entry per subscription: the same function subscribed twice is called twice.
  private readonly listeners = new Set<{ readonly listener: (e: T) => void }>();
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    const entry = { listener };
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  /**
   * Calls the listeners subscribed when it starts, in subscription order, minus any unsubscribed
   * meanwhile. A listener that throws is logged and skipped: one subscriber's defect must not deafen
   * the others (a failing view refresh would otherwise stop the kernel client from hearing its exit).
   */
  fire(e: T): void {
    for (const entry of [...this.listeners]) {
      if (!this.listeners.has(entry)) continue;
      try {
        entry.listener(e);
      } catch (error) {
        console.error("an event listener failed; the others were still called:", error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

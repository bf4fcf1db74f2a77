// One place that knows whether the kernel still accepts work and runs the shutdown steps once, in
// the order declared as data (kernel.ts: SHUTDOWN_ORDER), whatever order the parts registered in.
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";

export class ShutdownGate {
  private hooks = new Map<string, () => Promise<void> | void>();
  private closing: Promise<void> | null = null;

  /** `order`: every step's name, first to stop first. A gate without steps only guards new work. */
  constructor(private readonly order: readonly string[] = []) {}

  get accepting(): boolean {
    return this.closing === null;
  }

  /** Throws a clear error when new work arrives during shutdown. */
  assertAccepting(what: string): void {
    if (!this.accepting)
      throw new HearthError(ErrorCode.ShuttingDown, `refused: ${what}: the kernel is shutting down; start it again and retry`);
  }

  /** Sets what the step `name` does; a name the order does not declare is a programming error. */
  onShutdown(name: string, run: () => Promise<void> | void): void {
    if (!this.order.includes(name)) throw new Error(`shutdown step "${name}" is not in the declared order (${this.order.join(", ")})`);
    this.hooks.set(name, run);
  }

  shutdown(log: (line: string) => void): Promise<void> {
    this.closing ??= (async () => {
      for (const name of this.order) {
        try {
          await this.hooks.get(name)?.();
        } catch (e) {
          log(`shutdown step ${name} failed: ${errorMessage(e)}`);
        }
      }
    })();
    return this.closing;
  }
}

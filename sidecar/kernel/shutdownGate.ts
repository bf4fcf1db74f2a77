// One place that knows whether the kernel still accepts work and runs the shutdown hooks once,
// in reverse registration order (the journal closes last because it opened first).
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";

export class ShutdownGate {
  private hooks: { name: string; run: () => Promise<void> | void }[] = [];
  private closing: Promise<void> | null = null;

  get accepting(): boolean {
    return this.closing === null;
  }

  /** Throws a clear error when new work arrives during shutdown. */
  assertAccepting(what: string): void {
    if (!this.accepting)
      throw new HearthError(ErrorCode.ShuttingDown, `refused: ${what}: the kernel is shutting down; start it again and retry`);
  }

  onShutdown(name: string, run: () => Promise<void> | void): void {
    this.hooks.push({ name, run });
  }

  shutdown(log: (line: string) => void): Promise<void> {
    this.closing ??= (async () => {
      for (const hook of [...this.hooks].reverse()) {
        try {
          await hook.run();
        } catch (e) {
          log(`shutdown step ${hook.name} failed: ${errorMessage(e)}`);
        }
      }
    })();
    return this.closing;
  }
}

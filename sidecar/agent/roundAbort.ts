// One model round's cancellation, shared by the harness and the engines (harness #18): the inner
// abort signal fires when the caller aborts *and* when the presentation sink throws, and the sink's
// error is what the round then rejects with. Empty chunks are never forwarded.
import type { ModelChunk } from "./ports/model.js";

export class RoundAbort {
  private readonly controller = new AbortController();
  private sinkFailure: { error: unknown } | null = null;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);

  constructor(private readonly outer: AbortSignal) {
    outer.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  /** The signal to hand to the engine. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Wraps the caller's sink: a throw stops the round instead of escaping into the engine. */
  sink(onChunk: (chunk: ModelChunk) => void): (chunk: ModelChunk) => void {
    return (chunk) => {
      if (this.sinkFailure || ("text" in chunk ? chunk.text === "" : "chars" in chunk && chunk.chars === 0)) return;
      try {
        onChunk(chunk);
      } catch (error) {
        this.sinkFailure = { error };
        this.controller.abort(error);
      }
    };
  }

  /** The sink's error, if the sink failed. */
  get sinkError(): { error: unknown } | null {
    return this.sinkFailure;
  }

  /** Rethrows the sink's error, if the sink failed: that, not the engine's abort, is the round's error. */
  throwIfSinkFailed(): void {
    if (this.sinkFailure) throw this.sinkFailure.error;
  }

  release(): void {
    this.outer.removeEventListener("abort", this.onOuterAbort);
  }
}

// Coalesces a turn's presentation events before they cross the protocol: consecutive deltas of the
// same kind merge into one notification per flush window, so a fast model does not send one frame
// per token. A delta arriving after a quiet window is sent at once (the leading edge): the first token
// of a turn is not delayed, and a model slower than one token per window is never held back.
// Lossless: the concatenated deltas a client receives equal the committed text, and every non-delta
// event flushes what came before it, so order is kept (harness #18: progress is forwarded
// losslessly with turn identity and never enters history).
import type { TurnEvent } from "../../../shared/protocol/index.js";

/**
 * 20 updates a second: smooth for reading. Each notification costs the kernel a write and the client a
 * wake-up, on the cores llama.cpp decodes on: one per token measured 0.92-0.93x node-llama-cpp's decode
 * against 0.96-0.97x with three per answer (2 cores, interleaved A/B runs, docs/models.md).
 */
export const FLUSH_WINDOW_MS = 50;

type DeltaType = "answer_delta" | "reasoning_delta";

export class EventCoalescer {
  private pending: { type: DeltaType; text: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;
  private lastDeltaSentMs = -Infinity;

  constructor(
    private readonly send: (seq: number, event: TurnEvent) => void,
    private readonly windowMs = FLUSH_WINDOW_MS,
  ) {}

  push(event: TurnEvent): void {
    if (event.type === "answer_delta" || event.type === "reasoning_delta") {
      if (event.text.length === 0) return;
      if (this.pending && this.pending.type !== event.type) this.flush();
      const quietFor = performance.now() - this.lastDeltaSentMs;
      if (!this.pending && quietFor >= this.windowMs) {
        this.sendDelta(event.type, event.text);
        return;
      }
      if (this.pending) this.pending.text += event.text;
      else this.pending = { type: event.type, text: event.text };
      this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowMs - quietFor));
      return;
    }
    this.flush();
    this.send(this.seq++, event);
  }

  /** Sends whatever delta is buffered. Call before the turn's final event. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const p = this.pending;
    this.pending = null;
    if (p) this.sendDelta(p.type, p.text);
  }

  private sendDelta(type: DeltaType, text: string): void {
    this.lastDeltaSentMs = performance.now();
    this.send(this.seq++, { type, text });
  }
}

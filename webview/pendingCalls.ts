// A tool call while the model writes it (issue 25 item 4: for minutes the view showed nothing): a card
// appears as soon as the kernel says a call began (tool_call_started, with its tool's name), counts the
// seconds and tokens the model has spent on it, and becomes the call's own card, in place, when the
// ledger holds the call (tool_call): one card per call, never two. A call that never arrives (the turn
// was cancelled, failed or stopped while it was written) says so and stays: a card that vanished would
// hide what happened (seed 004: silence and disappearance are not success).
import type { ToolCallRecord } from "../shared/protocol/records.js";
import { el } from "./dom.js";
import { approxTokens } from "./turnProgress.js";

interface Pending {
  index: number;
  name: string;
  node: HTMLElement;
  startedAt: number;
  chars: number;
  /** Written whole (a later call of its round has begun, or the round's first call arrived): it waits its turn. */
  written: boolean;
}

/** How a turn ended, for the calls it never made. */
export type TurnEnd = "completed" | "cancelled" | "failed" | "stopped";

const NEVER_MADE: Record<TurnEnd, string> = {
  completed: "The model stopped before it finished writing this call (it may have reached its token cap), so it never ran.",
  cancelled: "The turn was cancelled while the model wrote this call, so it never ran.",
  failed: "The turn failed while the model wrote this call, so it never ran.",
  stopped: "Hearth stopped the turn while the model wrote this call, so it never ran.",
};

export function pendingText(seconds: number, chars: number): string {
  const tokens = approxTokens(chars);
  return `writing the call… ${Math.floor(seconds)} s${tokens > 0 ? ` · ≈${tokens.toLocaleString("en")} tokens` : ""}`;
}

/** One reply's calls being written, oldest first. */
export class PendingCalls {
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The model began call `index` of its round: its card, to place where the reply is now. */
  started(index: number, name: string): HTMLElement {
    // A new round's first call: what the last round began and never made will not come now.
    if (index === 0) this.settle("completed");
    for (const p of this.pending) this.written(p);
    const node = el("div", "tool-call pending", undefined, "tool-call-pending");
    node.dataset.tool = name;
    node.dataset.status = "writing";
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", `${name}, being written`);
    const status = el("span", "tool-status writing", undefined, "tool-status");
    // The seconds tick: drawn, not announced (the live region says the turn's state once, main.ts).
    status.setAttribute("aria-hidden", "true");
    const head = el("div", "tool-head");
    head.append(el("span", "tool-name", name), el("span", "tool-target"), status);
    node.append(head);
    const p: Pending = { index, name, node, startedAt: this.now(), chars: 0, written: false };
    this.pending.push(p);
    this.draw(p);
    this.timer ??= setInterval(() => this.tick(), 1000);
    return node;
  }

  /** More of call `index`'s arguments were written (characters, as the kernel counted them). */
  grew(index: number, chars: number): void {
    const p = this.pending.find((q) => q.index === index && !q.written);
    if (!p) return;
    p.chars += chars;
    this.draw(p);
  }

  /**
   * The ledger holds `call`: the card that stood for it (the oldest being written under its name), to
   * be replaced by the call's own card, or undefined when none did. The round is over, so the calls
   * after it are written whole and wait their turn.
   */
  arrived(call: ToolCallRecord): HTMLElement | undefined {
    const at = this.pending.findIndex((p) => p.name === call.name);
    for (const p of this.pending) this.written(p);
    if (at < 0) return undefined;
    const [p] = this.pending.splice(at, 1);
    this.stopIfIdle();
    return p!.node;
  }

  /** The turn ended: each call still waiting never ran, and its card says why. */
  settle(end: TurnEnd): void {
    for (const p of this.pending) {
      p.node.dataset.status = "not_made";
      const status = p.node.querySelector<HTMLElement>(".tool-status")!;
      status.className = "tool-status not_made";
      status.textContent = "never ran";
      status.removeAttribute("aria-hidden");
      p.node.querySelector(".tool-head")!.after(el("div", "tool-reason", NEVER_MADE[end], "tool-reason"));
    }
    this.pending = [];
    this.stopIfIdle();
  }

  /** Redraws the cards still being written (each second). */
  tick(): void {
    for (const p of this.pending) if (!p.written) this.draw(p);
  }

  /** Stops the ticking (the transcript was replaced). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private written(p: Pending): void {
    if (p.written) return;
    p.written = true;
    p.node.dataset.status = "written";
    p.node.querySelector<HTMLElement>(".tool-status")!.textContent = "written, waits its turn";
  }

  private draw(p: Pending): void {
    p.node.querySelector<HTMLElement>(".tool-status")!.textContent = pendingText((this.now() - p.startedAt) / 1000, p.chars);
  }

  private stopIfIdle(): void {
    if (!this.pending.some((p) => !p.written)) this.stop();
  }
}

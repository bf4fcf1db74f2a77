// A sign of life while the model works (issue 25 item 4): under the streaming reply, what it does
// now (thinking, writing the answer, running a tool, waiting for you), the seconds since the turn
// began and the tokens it has streamed so far. It is drawn, not announced: the live region says a
// turn's state once (main.ts), never each second.
import type { ToolCallRecord, TurnEvent } from "../shared/protocol/records.js";
import { el } from "./dom.js";

/** A streamed token is about four characters of English or code: the count is an estimate, said so. */
const CHARS_PER_TOKEN = 4;

export function approxTokens(chars: number): number {
  return Math.round(chars / CHARS_PER_TOKEN);
}

type Doing =
  | { kind: "thinking" }
  | { kind: "writing" }
  | { kind: "composing"; name: string }
  | { kind: "tool"; call: ToolCallRecord }
  | { kind: "waiting" };

export function progressText(doing: Doing, seconds: number, streamedChars: number): string {
  const what =
    doing.kind === "thinking"
      ? "Thinking…"
      : doing.kind === "writing"
        ? "Writing…"
        : doing.kind === "composing"
          ? `Writing a ${doing.name} call…`
          : doing.kind === "tool"
            ? `Running ${doing.call.name}…`
            : "Waiting for your decision…";
  const tokens = approxTokens(streamedChars);
  return `${what} ${Math.floor(seconds)} s${tokens > 0 ? ` · ≈${tokens.toLocaleString("en")} tokens so far` : ""}`;
}

export class TurnProgress {
  readonly node = el("div", "turn-progress", undefined, "turn-progress");
  private doing: Doing = { kind: "thinking" };
  private chars = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly startedAt: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.node.setAttribute("aria-hidden", "true");
    this.timer = setInterval(() => this.render(), 1000);
    this.render();
  }

  /** Each event of the turn says what the model does now. */
  hear(event: TurnEvent): void {
    switch (event.type) {
      case "reasoning_delta":
        this.chars += event.text.length;
        this.doing = { kind: "thinking" };
        break;
      case "answer_delta":
        this.chars += event.text.length;
        this.doing = { kind: "writing" };
        break;
      case "tool_call_started":
        this.doing = { kind: "composing", name: event.name };
        break;
      case "tool_call_args":
        this.chars += event.chars;
        break;
      case "tool_call":
        this.doing = { kind: "tool", call: event.call };
        break;
      case "tool_result":
        // The next round begins: the model reads the result (and may be writing its next call).
        this.doing = { kind: "thinking" };
        break;
      case "status":
        if (event.status === "waiting_approval" || event.status === "waiting_input") this.doing = { kind: "waiting" };
        else if (event.status === "running" && this.doing.kind === "waiting") this.doing = { kind: "thinking" };
        break;
      case "completed":
        this.stop();
        return;
    }
    this.render();
  }

  stop(): void {
    clearInterval(this.timer);
    this.node.remove();
  }

  private render(): void {
    this.node.dataset.doing = this.doing.kind;
    this.node.textContent = progressText(this.doing, (this.now() - this.startedAt) / 1000, this.chars);
  }
}

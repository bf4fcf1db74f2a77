// The chat transcript: committed history on (re)load, then live turns built from turn events in
// the order they arrive. Model and tool text is only ever set with textContent (never as HTML).
import type { HistoryMessage, ToolCallRecord, TurnEvent } from "../shared/protocol/records.js";

function el(tag: string, className?: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function userMessage(text: string): HTMLElement {
  const node = el("div", "msg user");
  node.dataset.testid = "user-message";
  node.append(el("div", "who", "You"), el("div", "body", text));
  return node;
}

function toolCall(call: ToolCallRecord): HTMLElement {
  const node = el("div", "tool-call");
  node.dataset.testid = "tool-call";
  node.dataset.callId = call.callId;
  node.dataset.tool = call.name;
  node.append(el("div", "tool-name", `→ ${call.name}`), el("pre", "tool-args", JSON.stringify(call.arguments, null, 2)));
  return node;
}

function toolResult(ok: boolean, output: string): HTMLElement {
  const node = el("details", `tool-result ${ok ? "ok" : "failed"}`);
  node.dataset.testid = "tool-result";
  node.dataset.ok = String(ok);
  const firstLine = output.split("\n", 1)[0] ?? "";
  node.append(el("summary", undefined, `${ok ? "✓" : "✗"} ${firstLine.slice(0, 120)}`), el("pre", undefined, output));
  return node;
}

/** One assistant reply: answer text, reasoning and tool calls in arrival order. */
class AssistantBlock {
  readonly node = el("div", "msg assistant");
  private current: { kind: "answer" | "reasoning"; node: HTMLElement } | undefined;

  constructor() {
    this.node.dataset.testid = "assistant-message";
    this.node.append(el("div", "who", "Hearth"));
  }

  answer(text: string): void {
    this.textBlock("answer").append(text);
  }

  reasoning(text: string): void {
    this.textBlock("reasoning").append(text);
  }

  call(call: ToolCallRecord): void {
    this.current = undefined;
    this.node.append(toolCall(call));
  }

  result(callId: string, ok: boolean, output: string): void {
    this.current = undefined;
    const call = Array.from(this.node.querySelectorAll<HTMLElement>(".tool-call")).find((c) => c.dataset.callId === callId);
    (call ?? this.node).append(toolResult(ok, output));
  }

  status(text: string, status: string, testId = "turn-status"): void {
    this.current = undefined;
    const node = el("div", `turn-status ${status}`, text);
    node.dataset.testid = testId;
    node.dataset.status = status;
    this.node.append(node);
  }

  private textBlock(kind: "answer" | "reasoning"): HTMLElement {
    if (this.current?.kind === kind) return this.current.node;
    let node: HTMLElement;
    if (kind === "answer") {
      node = el("div", "answer");
      node.dataset.testid = "answer";
      this.node.append(node);
    } else {
      // Reasoning is dimmed and folded: a person opens it when they want it.
      const details = el("details", "reasoning");
      details.append(el("summary", undefined, "Reasoning"));
      node = el("div", "reasoning-text");
      details.append(node);
      this.node.append(details);
    }
    this.current = { kind, node };
    return node;
  }
}

export class Transcript {
  readonly node = el("div", "transcript");
  private readonly live = new Map<string, AssistantBlock>();

  constructor() {
    this.node.dataset.testid = "transcript";
  }

  /** Replaces everything with a session's committed history. */
  show(messages: HistoryMessage[]): void {
    this.node.replaceChildren();
    this.live.clear();
    this.node.dataset.historyMessages = String(messages.length);
    let assistant: AssistantBlock | undefined;
    for (const m of messages) {
      switch (m.role) {
        case "system":
          break;
        case "user":
          assistant = undefined;
          this.node.append(userMessage(m.text));
          break;
        case "assistant":
          if (!assistant) {
            assistant = new AssistantBlock();
            this.node.append(assistant.node);
          }
          if (m.reasoning) assistant.reasoning(m.reasoning);
          if (m.text) assistant.answer(m.text);
          for (const call of m.toolCalls) assistant.call(call);
          break;
        case "tool":
          assistant?.result(m.callId, m.ok, m.output);
          break;
      }
    }
    this.scroll();
  }

  /** A turn the kernel accepted: the person's message and an (empty) reply to stream into. */
  startTurn(runId: string, message: string | null): void {
    const block = new AssistantBlock();
    this.live.set(runId, block);
    if (message !== null) this.node.append(userMessage(message));
    this.node.append(block.node);
    this.scroll();
  }

  event(runId: string, event: TurnEvent): void {
    const block = this.live.get(runId);
    if (!block) return;
    switch (event.type) {
      case "answer_delta":
        block.answer(event.text);
        break;
      case "reasoning_delta":
        block.reasoning(event.text);
        break;
      case "tool_call":
        block.call(event.call);
        break;
      case "tool_result":
        block.result(event.callId, event.ok, event.output);
        break;
      case "status":
        break;
      case "completed": {
        const text = event.status === "completed" ? "Completed" : event.status === "cancelled" ? "Cancelled"
          : event.status === "stopped" ? `Stopped: ${event.error?.message ?? "a loop guard ended the turn"}` : `Failed: ${event.error?.message ?? "no reason given"}`;
        block.status(text, event.status);
        this.live.delete(runId);
        break;
      }
    }
    this.scroll();
  }

  notice(level: "info" | "error", message: string): void {
    const node = el("div", `notice ${level}`, message);
    node.dataset.testid = "chat-notice";
    node.dataset.level = level;
    this.node.append(node);
    this.scroll();
  }

  private scroll(): void {
    this.node.lastElementChild?.scrollIntoView({ block: "end" });
  }
}

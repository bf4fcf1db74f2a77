// One streamed chat completion read into a model round: deltas are emitted as they arrive, and the
// round is only taken as finished when the server said so (a finish_reason or `[DONE]`). A stream
// that breaks off or just ends before that is a failure, never a shorter answer (STYLE: never turn
// a failure into success): the text so far was shown as it streamed, but it is not a round.
import type { ModelChunk, ModelRound } from "../../agent/ports/model.js";
import { ToolCallAssembler, type ToolCallDelta } from "./toolCallAssembler.js";

export interface StreamEvent {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason?: string | null;
  }[];
  error?: { message?: string };
}

export class StreamedRound {
  private text = "";
  private reasoning = "";
  private finish: string | null = null;
  private done = false;
  private readonly calls = new ToolCallAssembler();

  constructor(private readonly emit: (c: ModelChunk) => void) {}

  /** Takes one event's choice; `[DONE]` marks the end of the stream. */
  add(event: StreamEvent | "[DONE]"): void {
    if (event === "[DONE]") {
      this.done = true;
      return;
    }
    const choice = event.choices?.[0];
    if (!choice) return;
    const d = choice.delta ?? {};
    const think = d.reasoning_content ?? d.reasoning;
    if (think) {
      this.reasoning += think;
      this.emit({ type: "reasoning", text: think });
    }
    if (d.content) {
      this.text += d.content;
      this.emit({ type: "answer", text: d.content });
    }
    for (const tc of d.tool_calls ?? []) {
      // issue 25 item 4: the view shows the call while its arguments are still streaming.
      const { index, startedName, chars } = this.calls.add(tc);
      if (startedName !== undefined) this.emit({ type: "tool_call_started", index, name: startedName });
      if (chars > 0) this.emit({ type: "tool_call_args", index, chars });
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
  }

  /** Whether the server marked the end (a finish_reason, or `[DONE]` from one that sends none). */
  get finished(): boolean {
    return this.done || this.finish !== null;
  }

  round(): ModelRound {
    const toolCalls = this.calls.finish();
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      stopReason: toolCalls.length > 0 ? "tool_calls" : this.finish === "length" ? "max_tokens" : "end",
    };
  }
}

// Assembles streamed `tool_calls` deltas: the first delta of a call carries its index, id and name,
// later ones append argument text by index.
import type { ProposedToolCall } from "../../agent/ports/model.js";

export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();

  /**
   * The call's index, its name when this delta is the call's first argument text (its name is whole
   * by then), and how many characters of arguments it added.
   */
  add(delta: ToolCallDelta): { index: number; startedName?: string; chars: number } {
    const index = delta.index ?? 0;
    const call = this.calls.get(index) ?? { name: "", args: "" };
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    const first = call.args === "" && Boolean(delta.function?.arguments);
    if (delta.function?.arguments) call.args += delta.function.arguments;
    this.calls.set(index, call);
    const chars = delta.function?.arguments?.length ?? 0;
    return first ? { index, startedName: call.name, chars } : { index, chars };
  }

  /** Arguments that are not JSON stay text: they are untrusted and re-validated by the harness (harness #5). */
  finish(): ProposedToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => {
        let args: unknown = c.args;
        try {
          args = c.args.trim() === "" ? {} : JSON.parse(c.args);
        } catch {
          // keep the raw text
        }
        return { name: c.name, arguments: args, ...(c.id ? { providerCallId: c.id } : {}) };
      });
  }
}

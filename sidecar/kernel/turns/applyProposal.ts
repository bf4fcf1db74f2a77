// "Apply to file" on a chat code block (issue 15) is a person's action, run as a turn of the session
// whose only call is write_file(path, content). The model port is this fixed proposer, never the
// session's model: the call takes the normal road (ledger, approval lenses in the file, the kernel's
// verified atomic install, the undo journal) and the turn's closing line says what became of it.
import type { AgentModel, GenerationRequest, ModelChunk, ModelRound } from "../../agent/ports/model.js";

export interface ApplyRequest {
  /** Workspace-relative; the write_file tool resolves it beneath the workspace descriptor. */
  path: string;
  content: string;
}

export class ApplyProposal implements AgentModel {
  readonly adapter = "apply";
  readonly modelId = "hearth-apply";
  readonly capabilities = {
    systemRole: "proven",
    toolCalls: "proven",
    reasoningHistory: "proven",
    thinkingToggle: "proven",
  } as const;

  constructor(private readonly apply: ApplyRequest) {}

  async generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound> {
    if (request.signal.aborted) throw request.signal.reason as Error;
    const last = request.messages.at(-1);
    // Round one proposes the write; the next reports the tool's own words (approved, denied, refused).
    if (last?.role !== "tool") {
      return {
        text: "",
        reasoning: "",
        toolCalls: [{ name: "write_file", arguments: { path: this.apply.path, content: this.apply.content } }],
        stopReason: "tool_calls",
      };
    }
    const text = outcomeLine(this.apply.path, last.output);
    onChunk({ type: "answer", text });
    return { text, reasoning: "", toolCalls: [], stopReason: "end" };
  }
}

/** The turn's answer: applied, or the tool's refusal or denial verbatim (it says why and what to do). */
export function outcomeLine(path: string, output: string): string {
  if (/^(denied|refused|cancelled|not run|error)\b/i.test(output.trim())) return `Not applied to ${path}: ${output.trim()}`;
  return `Applied to ${path}: ${output.trim()}`;
}

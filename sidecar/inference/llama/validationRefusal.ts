// node-llama-cpp re-validates grammar-constrained call arguments and throws when they disagree with
// the schema, which would end the whole turn as a model failure. Where the grammar cannot express a
// bound (an integer written as 1e999, bytes the grammar counted as fewer characters than the text
// holds) the harness's schema check is the gate instead (harness #5): the call is handed to it,
// refused there with a reason the model sees, and the turn carries on.
import { LlamaJsonSchemaValidationError, type ChatModelFunctions } from "node-llama-cpp";
import type { ProposedToolCall } from "../../agent/ports/model.js";

/** The call node-llama-cpp refused, as a proposal for the schema check; null for any other error. */
export function callRefusedByValidation(e: unknown, functions: ChatModelFunctions | undefined): ProposedToolCall | null {
  if (!(e instanceof LlamaJsonSchemaValidationError) || !functions) return null;
  // The error carries the exact params schema object the call was generated with.
  const name = Object.keys(functions).find((n) => functions[n]?.params === e.schema);
  return name === undefined ? null : { name, arguments: e.object };
}

/** Text streamed so far in a round: the reply that carries a refused call must keep it (harness #3). */
export class StreamedText {
  answer = "";
  reasoning = "";

  add(type: "answer" | "reasoning", text: string): void {
    if (type === "answer") this.answer += text;
    else this.reasoning += text;
  }
}

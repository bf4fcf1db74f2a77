// One model round (harness #3, #18): streams deltas to the sink, reconciles them with the terminal
// response, and turns every early exit (sink failure, cancellation, provider error) into a typed
// failure only after the model's completion barrier has resolved.
import { singleLine } from "../../shared/boundedText.js";
import { TurnCancelled } from "./cancellation.js";
import { DeltaReconciler, NonPrefixDelta } from "./deltaReconciler.js";
import { RoundAbort } from "./roundAbort.js";
import type { AgentModel, GenerationRequest, ModelRound } from "./ports/model.js";
import { TurnFailed, type AgentEvent } from "./turnOutcome.js";
import { errorMessage } from "../../shared/errors.js";

export async function runModelRound(
  model: AgentModel,
  request: Omit<GenerationRequest, "signal">,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
): Promise<ModelRound> {
  const answer = new DeltaReconciler("answer");
  const reasoning = new DeltaReconciler("reasoning");
  // harness #18: a failing sink cancels the model stream, like the caller's abort.
  const round = new RoundAbort(signal);
  let result: ModelRound;
  try {
    result = await model.generate(
      { ...request, signal: round.signal },
      round.sink((chunk) => {
        if (chunk.type === "tool_call_started") return emit({ type: "tool_call_started", index: chunk.index, name: chunk.name });
        if (chunk.type === "tool_call_args") return emit({ type: "tool_call_args", index: chunk.index, chars: chunk.chars });
        const text = (chunk.type === "answer" ? answer : reasoning).push(chunk.text);
        emit({ type: chunk.type === "answer" ? "answer_delta" : "reasoning_delta", text });
      }),
    );
  } catch (e) {
    if (signal.aborted) throw new TurnCancelled();
    if (round.sinkError) throw sinkFailure(round.sinkError.error);
    throw new TurnFailed("model_failed", `the model round failed: ${errorMessage(e)}`, e);
  } finally {
    round.release();
  }
  if (signal.aborted) throw new TurnCancelled(); // cancellation wins a tie with completion
  if (round.sinkError) throw sinkFailure(round.sinkError.error); // a model that swallowed the sink's error
  let reasoningSuffix: string;
  let answerSuffix: string;
  try {
    reasoningSuffix = reasoning.finish(result.reasoning);
    answerSuffix = answer.finish(result.text);
  } catch (e) {
    if (e instanceof NonPrefixDelta)
      throw new TurnFailed("non_prefix", `${e.message}; the turn was failed rather than commit text nobody saw`, e);
    throw e;
  }
  try {
    if (reasoningSuffix) emit({ type: "reasoning_delta", text: reasoningSuffix });
    if (answerSuffix) emit({ type: "answer_delta", text: answerSuffix });
  } catch (e) {
    throw sinkFailure(e);
  }
  return result;
}

export function sinkFailure(e: unknown): TurnFailed {
  if (e instanceof TurnFailed && e.kind === "sink_failed") return e;
  return new TurnFailed("sink_failed", `the event sink failed: ${singleLine(errorMessage(e), 160)}`, e);
}

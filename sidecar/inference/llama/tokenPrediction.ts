// Input-lookup decoding (issue 30, item 1): an edit copies its oldText from a file the model has just
// read, and most of its newText too, so the prompt's own tokens predict the continuation. node-llama-cpp
// evaluates the predicted tokens in the same batch as the next token and keeps those the sampler would
// have produced itself, so the output is the one decoding without prediction gives (greedy: token for
// token; sampled: each token still drawn from the model's distribution given the true prefix).
//
// Predictions are made only while the session decodes alone. Concurrent sessions already fill a batch
// with one token each, in lockstep (lockstepGate.ts holds one-token decodes); a session adding guesses
// would leave that lockstep and make every shared step wider on a CPU that has no idle lanes. Where the
// guesses keep missing, the session stops guessing for a while (guessBackoff.ts).
import { GuessBackoff } from "./guessBackoff.js";
import { InputLookupTokenPredictor, type LlamaContextSequence, type Token, TokenPredictor } from "node-llama-cpp";

/** Pattern and prediction lengths: a match of 2+ tokens is a copy more often than chance; 8 guesses a batch. */
const LOOKUP = { patternLength: { min: 2 }, predictionLength: { max: 8 } };

export class SoloInputLookup extends TokenPredictor {
  private readonly lookup = new InputLookupTokenPredictor(LOOKUP);
  /** The sequence it predicts for, told by node-llama-cpp before each generation. */
  private sequence: LlamaContextSequence | null = null;
  private readonly backoff = new GuessBackoff();
  /** The sequence's confirmed and refuted counts when they were last recorded into the back-off. */
  private counted = { validated: 0, refuted: 0 };

  /** @param alone whether this sequence's session is the only one generating now */
  constructor(private readonly alone: (sequence: LlamaContextSequence) => boolean) {
    super();
  }

  reset(params: Parameters<TokenPredictor["reset"]>[0]): void {
    this.sequence = params.targetSequence;
    this.counted = { ...params.targetSequence.tokenPredictions };
    this.lookup.reset(params);
  }

  pushTokens(tokens: Token[]): void {
    this.lookup.pushTokens(tokens);
  }

  predictTokens(): Token[] {
    if (!this.sequence) return [];
    // node-llama-cpp asks once a step, after checking the last step's guesses, so the counters' growth
    // since the last ask is the outcome of those guesses.
    const { validated, refuted } = this.sequence.tokenPredictions;
    this.backoff.record(validated - this.counted.validated, refuted - this.counted.refuted);
    this.counted = { validated, refuted };
    // Its tokens are still pushed while others generate or guesses are paused, and a cached match is
    // rechecked against them, so skipping the lookup costs nothing when it is asked again.
    const allowance = this.backoff.allowance();
    return allowance > 0 && this.alone(this.sequence) ? this.lookup.predictTokens().slice(0, allowance) : [];
  }

  override updateInputTokens(tokens: Token[]): void {
    // node-llama-cpp gives the prompt once a generation: a new prompt may be one the answer copies.
    this.backoff.clear();
    this.lookup.updateInputTokens(tokens);
  }

  override dispose(): void {
    this.lookup.dispose();
  }
}

type PredictionCounts = LlamaContextSequence["tokenPredictions"];

/**
 * A round's generated tokens and its predictions, from the sequence's counters before and after it: the
 * token meter counts every predicted token evaluated, so the refuted ones, and confirmed ones the answer
 * ended before using, are not part of what was generated.
 */
export function generationCounts(
  evaluatedOutput: number,
  before: PredictionCounts,
  after: PredictionCounts,
): { generatedTokens: number; predictedTokens: { validated: number; refuted: number } } {
  const refuted = after.refuted - before.refuted;
  return {
    generatedTokens: evaluatedOutput - refuted - (after.unused - before.unused),
    predictedTokens: { validated: after.validated - before.validated, refuted },
  };
}

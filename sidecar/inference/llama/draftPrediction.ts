// Drafting with a small model of the same vocabulary (issue 30, item 1): node-llama-cpp's
// DraftSequenceTokenPredictor runs the session's tokens through a sequence of the draft model's context
// and offers what the draft generates next; the chat model evaluates those guesses in the same batch as
// its next token and keeps them only while each equals what its own sampler draws there
// (tokenPrediction.ts says why that leaves the output as it is).
//
// As with input lookup, a session drafts only while it generates alone: concurrent sessions already
// share each step in lockstep (lockstepGate.ts holds one-token decodes), a step widened by one session's
// guesses would leave that lockstep, and the draft's own decoding would take the cores they share.
import { DraftSequenceTokenPredictor, type LlamaContextSequence, type Token, TokenPredictor } from "node-llama-cpp";

/**
 * Each step waits for a draft of 8 tokens, or fewer where the draft's confidence in its next token falls
 * below node-llama-cpp's 0.6, as llama.cpp's own speculative decoding drafts before each step. Without
 * the wait (node-llama-cpp's default, minTokens 0) the draft runs beside the chat model on the same
 * cores, and after each refuted guess it restarts behind it: with the copy fixture drafting for itself,
 * 27 steps offered no guess at all. 8, as input lookup's widest step: a refuted batch stays cheap on a CPU.
 */
const DRAFT = { minTokens: 8, maxTokens: 8 };

export class SoloDraft extends TokenPredictor {
  private readonly draft: DraftSequenceTokenPredictor;
  private sequence: LlamaContextSequence | null = null;

  /**
   * @param draftSequence this session's own sequence in the draft model's context, disposed with the predictor
   * @param alone whether this sequence's session is the only one generating now
   */
  constructor(
    private readonly draftSequence: LlamaContextSequence,
    private readonly alone: (sequence: LlamaContextSequence) => boolean,
  ) {
    super();
    this.draft = new DraftSequenceTokenPredictor(draftSequence, DRAFT);
  }

  reset(params: Parameters<TokenPredictor["reset"]>[0]): Promise<void> {
    this.sequence = params.targetSequence;
    return this.draft.reset(params);
  }

  pushTokens(tokens: Token[]): void {
    this.draft.pushTokens(tokens);
  }

  predictTokens(): Token[] | Promise<Token[]> {
    if (this.sequence && this.alone(this.sequence)) return this.draft.predictTokens();
    // Stopped, the draft keeps the tokens pushed meanwhile and catches up in one batch when asked again.
    this.draft.stop();
    return [];
  }

  override stop(untilPredictionsExhausted?: boolean): void {
    this.draft.stop(untilPredictionsExhausted);
  }

  override dispose(): void {
    this.draft.dispose();
    this.draftSequence.dispose();
  }
}

// harness #3: streamed deltas must form a prefix of the terminal text. The harness emits the
// missing suffix before completion, so presentation concatenation equals the committed field; a
// stream that is not a prefix fails the turn. Used once for answer text and once for reasoning.
export class NonPrefixDelta extends Error {
  constructor(
    readonly field: "answer" | "reasoning",
    streamedChars: number,
  ) {
    super(`the model streamed ${field} text (${streamedChars} chars) that is not a prefix of its terminal ${field}`);
    this.name = "NonPrefixDelta";
  }
}

export class DeltaReconciler {
  private streamed = "";

  constructor(readonly field: "answer" | "reasoning") {}

  /** Records a streamed delta; returns it for presentation. */
  push(delta: string): string {
    this.streamed += delta;
    return delta;
  }

  /** The suffix still to emit so presentation equals `terminal`; throws NonPrefixDelta otherwise. */
  finish(terminal: string): string {
    if (!terminal.startsWith(this.streamed)) throw new NonPrefixDelta(this.field, this.streamed.length);
    return terminal.slice(this.streamed.length);
  }
}

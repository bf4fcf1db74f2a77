// Tokenizing a turn's prompt costs what is new in it, not the whole history (issue 32). Every round
// renders the session's whole history through the chat wrapper and tokenizes it three times (the
// condenser's measure, the round's own prompt, LlamaChat's context window), and node-llama-cpp's
// LlamaText tokenizes the text between special tokens piece by piece: with a wrapper that puts
// special tokens between messages (ChatML, Qwen, Llama 3, Gemma), each piece is one message, the
// same string turn after turn. Remembering each piece's tokens leaves only the new messages for the
// native tokenizer. Tokenizing is a pure function of (text, specialTokens, options), so the tokens
// are exactly those the native tokenizer returns (docs/models.md).
import type { LlamaModel, Token, Tokenizer } from "node-llama-cpp";

export interface TokenizeWork {
  /** Calls that reached the native tokenizer, and the characters they tokenized. */
  nativeCalls: number;
  nativeChars: number;
  /** Calls answered from the memo, and their characters. */
  memoCalls: number;
  memoChars: number;
}

/**
 * A least-recently-used map of text pieces to their tokens, bounded by the characters it holds.
 * Installed on the model instance (`tokenize` and `tokenizer`, what LlamaChat and LlamaText call).
 */
export class TokenizeMemo {
  private readonly pieces = new Map<string, readonly Token[]>();
  private heldChars = 0;
  readonly work: TokenizeWork = { nativeCalls: 0, nativeChars: 0, memoCalls: 0, memoChars: 0 };

  private constructor(private readonly maxChars: number) {}

  /** Replaces the model's tokenizer with a remembering one; `maxChars` bounds what it keeps. */
  static install(model: LlamaModel, maxChars: number): TokenizeMemo {
    const memo = new TokenizeMemo(maxChars);
    const native = model.tokenizer;
    const tokenize = ((text: string, specialTokens?: boolean | "builtin", options?: "trimLeadingSpace"): Token[] => {
      // Short pieces too: the special text between messages is one native call per message otherwise.
      if (specialTokens === "builtin" || text === "") return native(text as never, specialTokens as never, options);
      return memo.tokens(text, specialTokens === true, options, () => native(text, specialTokens, options));
    }) as Tokenizer;
    // The rest of the Tokenizer shape (LlamaText and the stop-trigger detectors call these on it).
    Object.assign(tokenize, { detokenize: native.detokenize, isSpecialToken: native.isSpecialToken, isEogToken: native.isEogToken });
    Object.freeze(tokenize);
    const target = model as unknown as { tokenize: Tokenizer; tokenizer: Tokenizer };
    target.tokenize = tokenize;
    target.tokenizer = tokenize;
    return memo;
  }

  private tokens(text: string, special: boolean, options: "trimLeadingSpace" | undefined, tokenizeNow: () => Token[]): Token[] {
    const key = `${special ? "s" : "t"}${options === "trimLeadingSpace" ? "1" : "0"}${text}`;
    const known = this.pieces.get(key);
    if (known) {
      // Most recently used last: eviction takes the oldest first.
      this.pieces.delete(key);
      this.pieces.set(key, known);
      this.work.memoCalls++;
      this.work.memoChars += text.length;
      return known.slice();
    }
    const tokens = tokenizeNow();
    this.work.nativeCalls++;
    this.work.nativeChars += text.length;
    if (key.length > this.maxChars) return tokens;
    this.pieces.set(key, tokens.slice());
    this.heldChars += key.length;
    for (const [oldKey] of this.pieces) {
      if (this.heldChars <= this.maxChars) break;
      this.pieces.delete(oldKey);
      this.heldChars -= oldKey.length;
    }
    return tokens;
  }
}

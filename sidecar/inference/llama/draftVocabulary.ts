// A draft model proposes token ids that the chat model then evaluates as its own (issue 30, item 1), so
// both must mean the same text by the same id. node-llama-cpp checks that only when a generation starts
// (its first round would fail); this checks it when the draft loads, so a mismatch is refused there and
// the chat model goes on without the draft.
import type { LlamaContext, LlamaModel } from "node-llama-cpp";
import { errorMessage } from "../../../shared/errors.js";

/** GgufMetadataTokenizerTokenType.unused (a const enum, which isolated modules cannot read): a padding id no text holds. */
const UNUSED = 5;

/** Special tokens, a code line and chat-template markers: ids that must agree for a draft's guesses to mean anything. */
const PROBE = "<|im_start|>user\nfunction add(a, b) { return a + b; }\n<|im_end|><|endoftext|><|begin_of_text|></s>";

/** Why `draft` cannot draft for `chat`, or null when their vocabularies agree. */
export function vocabularyMismatch(chat: LlamaContext, draft: LlamaContext): string | null {
  const [c, d] = [chat.model, draft.model];
  const extra = usedBeyond(c, d);
  if (extra) return extra;
  for (const name of ["bos", "eos", "eot"] as const)
    if (c.tokens[name] !== d.tokens[name]) return `its ${name} token is ${d.tokens[name]} and the chat model's ${c.tokens[name]}`;
  if (c.tokens.shouldPrependBosToken !== d.tokens.shouldPrependBosToken)
    return "one of the two prepends a start token and the other does not";
  const [pc, pd] = [c.tokenize(PROBE, true), d.tokenize(PROBE, true)];
  if (pc.join() !== pd.join()) return `a probe text tokenizes to [${pd.join(", ")}] with it and to [${pc.join(", ")}] with the chat model`;
  // llama.cpp's own rule (vocabulary type, size within 128, every token's text), the one node-llama-cpp
  // 3.21.1 applies at each generation's start; internal, so checked only where it exists.
  const native = (chat as unknown as { _ctx?: { ensureDraftContextIsCompatibleForSpeculative?: (d: unknown) => void } })._ctx;
  try {
    native?.ensureDraftContextIsCompatibleForSpeculative?.((draft as unknown as { _ctx: unknown })._ctx);
  } catch (e) {
    return errorMessage(e);
  }
  return null;
}

/**
 * Where one vocabulary has ids past the end of the other's that text can hold: the chat model's tokens
 * pass through the draft and the draft's guesses through the chat model, and an id one of them lacks
 * fails its decode step. Only padding may differ (llama.cpp's converter fills a vocabulary out to the
 * model's embedding size with unused tokens: Qwen2.5 0.5B's config has 151,936 ids, 7B's 152,064).
 */
function usedBeyond(chat: LlamaModel, draft: LlamaModel): string | null {
  const vocab = (m: LlamaModel) => m.fileInfo.metadata.tokenizer?.ggml;
  const [nc, nd] = [vocab(chat)?.tokens?.length ?? 0, vocab(draft)?.tokens?.length ?? 0];
  const [larger, n, lacks] = nd > nc ? [draft, nc, "the chat model lacks"] : [chat, nd, "the draft lacks"];
  const used = (vocab(larger)?.token_type ?? []).slice(n).filter((t) => t !== UNUSED).length;
  return used === 0
    ? null
    : `its vocabulary has ${nd} tokens and the chat model's ${nc}, and ${used} of the ids past ${n} are tokens ${lacks}`;
}

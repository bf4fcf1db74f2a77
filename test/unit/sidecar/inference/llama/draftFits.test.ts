// The memory check before a draft model loads (issue 30, item 1): a draft whose weights and every
// session's cache need more than is free beside the chat model is refused, with the sizes and what to do.
import assert from "node:assert/strict";
import { it } from "node:test";
import { draftFits } from "../../../../../sidecar/inference/llama/draftModel.js";

const MB = 2 ** 20;

it("lets a draft model load when what it needs fits the free memory", () => {
  assert.equal(draftFits("small.gguf", 500 * MB, 500 * MB), null);
});

it("refuses a draft model that needs more than is free, saying how much each, that the chat model goes on, and what to do", () => {
  const refusal = draftFits("big.gguf", 600 * MB, 599 * MB);
  assert.match(
    refusal ?? "",
    /refused: the draft model big\.gguf needs about 600 MB .* this machine has 599 MB free beside the chat model/,
  );
  assert.match(
    refusal ?? "",
    /the chat model runs without it; choose a smaller draft model, lower the context size or the number of sessions, or clear hearth\.inference\.draftModel/,
  );
});

// The memory check before a separate completion model loads (issue 31): a model this machine has not the
// free memory for is refused before anything is mapped, with the sizes and what to do.
import assert from "node:assert/strict";
import { it } from "node:test";
import { completionModelFits } from "../../../../../sidecar/kernel/model/completionModel.js";

const MB = 2 ** 20;

it("lets a completion model load when its file and a quarter more fit the free memory", () => {
  assert.equal(completionModelFits("small.gguf", 400 * MB, 500 * MB), null);
});

it("refuses a completion model larger than the free memory, saying how much each and what to do", () => {
  const refusal = completionModelFits("big.gguf", 400 * MB, 499 * MB);
  assert.ok(refusal);
  assert.match(refusal.message, /big\.gguf needs about 500 MB and this machine has 499 MB free/);
  assert.match(refusal.message, /choose a smaller completion model, or clear hearth\.completions\.model/);
});

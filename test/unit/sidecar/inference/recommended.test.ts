import assert from "node:assert/strict";
import { test } from "node:test";
import { recommendedModels } from "../../../../sidecar/inference/recommended.js";

const GB = 1024 ** 3;
const defaultFor = (bytes: number, cores = 16) =>
  recommendedModels(bytes, cores)
    .filter((m) => m.isDefault)
    .map((m) => m.name);

test("exactly one recommended model is the default: the largest this machine's memory holds (issue 10, item 3)", () => {
  assert.deepEqual(defaultFor(4 * GB), ["Qwen2.5-Coder 1.5B Instruct"]);
  assert.deepEqual(defaultFor(7.6 * GB), ["Qwen2.5-Coder 3B Instruct"], "an 8 GB machine reports a little less than 8 GB");
  assert.deepEqual(defaultFor(15.5 * GB), ["Qwen2.5-Coder 7B Instruct"]);
  assert.deepEqual(defaultFor(128 * GB), ["Qwen2.5-Coder 7B Instruct"]);
  assert.ok(
    recommendedModels(2 * GB).every((m) => /^hf:[^/]+\/[^/]+\/.+\.gguf$/.test(m.spec)),
    "each names its file, so a downloaded one resolves offline",
  );
});

test("the default considers the CPU too: a 7B model only from 8 cores, a 3B from 4 (issue 25 item 11)", () => {
  assert.deepEqual(defaultFor(32 * GB, 4), ["Qwen2.5-Coder 3B Instruct"], "plenty of memory, four cores");
  assert.deepEqual(defaultFor(32 * GB, 8), ["Qwen2.5-Coder 7B Instruct"]);
  assert.deepEqual(defaultFor(32 * GB, 2), ["Qwen2.5-Coder 1.5B Instruct"]);
  assert.deepEqual(defaultFor(4 * GB, 16), ["Qwen2.5-Coder 1.5B Instruct"], "memory still bounds it");
});

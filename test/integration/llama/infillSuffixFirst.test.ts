// The suffix-first layout (issue 31) on a vocabulary with prefix and suffix tokens but no middle token
// (the SPM-style fixture): the prompt is the suffix, then the prefix up to the cursor's line and that line
// last, so the model continues the cursor's line; it writes the fixture's middle, and typing at the end of
// a line reuses at least 90% of the prompt's tokens, as in the prefix-first layout.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { infillPrompt } from "../../../sidecar/inference/llama/infill.js";
import { type LoadedLlama, loadLlama } from "../../../sidecar/inference/llama/llamaRuntime.js";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { llamaModelForFile } from "../../support/llamaModel.js";

const spm = llamaModelForFile((paths) => ({
  modelPath: paths.fimSpm,
  threads: 1,
  contextSize: 2048,
  maxSessions: 1,
  batchSize: 64,
  stateStore: null,
}));

const body = Array.from({ length: 40 }, (_, i) => `const value${i} = compute(${i}, "item ${i}");`).join("\n");
const prefix = `${body}\nfunction add(a: number, b: number): number {\n  `;
const suffix = "\n}\n";
const infill = (p: string) => spm.model.infill({ prefix: p, suffix, maxTokens: 16, signal: new AbortController().signal });

describe("the suffix-first layout (no middle token)", { timeout: 120_000 }, () => {
  let loaded: LoadedLlama;
  before(async () => {
    loaded = await loadLlama({ modelPath: ensureFixtureModels().fimSpm, threads: 1, gpu: false });
  });
  after(async () => {
    await loaded.model.dispose();
    await loaded.llama.dispose();
  });

  it("lays the prompt out suffix, prefix, then the cursor's line", () => {
    assert.equal(loaded.model.tokens.infill.middle, null, "the fixture has no middle token");
    const chunks = [{ filename: "src/other.ts", text: "export const other = 1;\n" }];
    const prompt = loaded.model.detokenize(infillPrompt(loaded.model, "function f() {\n  ret", "\n}\n", 1024, chunks), true);
    assert.ok(prompt.startsWith("--- src/other.ts ---\nexport const other = 1;"), prompt);
    const suf = prompt.indexOf("<|fim_suffix|>\n}");
    const pre = prompt.indexOf("<|fim_prefix|>function f() {\n");
    assert.ok(suf >= 0 && pre > suf, `the suffix comes before the prefix: ${JSON.stringify(prompt)}`);
    assert.ok(prompt.endsWith("{\n  ret"), "the cursor's line ends the prompt");
  });

  it("writes the middle, and reuses at least 90% between keystrokes at the end of a line", async () => {
    assert.equal(spm.model.infillSupported, true);
    assert.equal((await infill(prefix)).text, FIM_MODEL_MIDDLE);
    const typed = "const total = add(value1, value2);";
    let reused = 0;
    let evaluated = 0;
    for (let i = 1; i <= typed.length; i += 1) {
      const r = await infill(prefix + typed.slice(0, i));
      reused += r.reusedTokens;
      evaluated += r.evaluatedTokens;
    }
    const share = reused / (reused + evaluated);
    assert.ok(share >= 0.9, `reused ${reused} of ${reused + evaluated} prompt tokens (${(share * 100).toFixed(1)}%)`);
  });
});

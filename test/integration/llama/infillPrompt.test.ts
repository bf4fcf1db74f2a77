// The fill-in-the-middle prompt Hearth builds (issue 31), on the FIM fixture's real vocabulary: the ring's
// chunks of other files come first, in the order sent, each after a line naming its file (the fixture has
// no `<|file_sep|>` token), then the prefix, the suffix and the cursor's line; over the budget, the window
// keeps its room and whole chunks go, the oldest first; they never take more than MAX_CHUNK_TOKENS.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { infillPrompt, MAX_CHUNK_TOKENS } from "../../../sidecar/inference/llama/infill.js";
import { type LoadedLlama, loadLlama } from "../../../sidecar/inference/llama/llamaRuntime.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

let loaded: LoadedLlama;
before(async () => {
  loaded = await loadLlama({ modelPath: ensureFixtureModels().fim, threads: 1, gpu: false });
});
after(async () => {
  await loaded.model.dispose();
  await loaded.llama.dispose();
});

const prefix = "function add(a: number, b: number): number {\n  ret";
const suffix = "\n}\n";
const chunks = [
  { filename: "src/old.ts", text: "export const oldest = 1;\n" },
  { filename: "src/mid.ts", text: "export const middle = 2;\n" },
  { filename: "src/new.ts", text: "export const newest = 3;\n" },
];
const text = (budget: number) => loaded.model.detokenize(infillPrompt(loaded.model, prefix, suffix, budget, chunks), true);

it("puts the chunks first, in the order sent, each named, then prefix, suffix, middle and the cursor's line", () => {
  const prompt = text(4096);
  const at = (s: string) => {
    const i = prompt.indexOf(s);
    assert.ok(i >= 0, `${JSON.stringify(s)} is in the prompt: ${JSON.stringify(prompt)}`);
    return i;
  };
  const order = [
    at("--- src/old.ts ---\nexport const oldest = 1;"),
    at("--- src/mid.ts ---\nexport const middle = 2;"),
    at("--- src/new.ts ---\nexport const newest = 3;"),
    at("<|fim_prefix|>function add"),
    at("<|fim_suffix|>\n}"),
    at("<|fim_middle|>  ret"),
  ];
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
  );
  assert.ok(prompt.endsWith("<|fim_middle|>  ret"), "the cursor's line ends the prompt");
  // Without chunks, the prompt is the window alone, as before.
  assert.ok(loaded.model.detokenize(infillPrompt(loaded.model, prefix, suffix, 4096), true).startsWith("<|fim_prefix|>"));
});

it("gives the chunks only the room the window leaves, dropping whole chunks, the oldest first", () => {
  const windowOnly = infillPrompt(loaded.model, prefix, suffix, 4096).length;
  const all = infillPrompt(loaded.model, prefix, suffix, 4096, chunks).length;
  const perChunk = (all - windowOnly) / chunks.length;
  // Room for the window and a bit more than one chunk: only the newest is kept, whole.
  const prompt = text(windowOnly + Math.ceil(perChunk * 1.5));
  assert.ok(prompt.includes("export const newest = 3;"), prompt);
  assert.ok(!prompt.includes("oldest") && !prompt.includes("middle = 2"), prompt);
  assert.ok(prompt.includes("<|fim_prefix|>function add(a: number, b: number): number {\n"), "the window is whole");
});

it("gives the chunks at most MAX_CHUNK_TOKENS however much room the context has, the newest kept", () => {
  const ring = Array.from({ length: 16 }, (_, f) => ({
    filename: `src/f${f}.ts`,
    text: `${Array.from({ length: 32 }, (_, i) => `export const f${f}_${i} = lookup(${i});`).join("\n")}\n`,
  }));
  const windowOnly = infillPrompt(loaded.model, prefix, suffix, 1 << 20).length;
  const withRing = infillPrompt(loaded.model, prefix, suffix, 1 << 20, ring);
  const chunkTokens = withRing.length - windowOnly;
  assert.ok(chunkTokens <= MAX_CHUNK_TOKENS && chunkTokens > MAX_CHUNK_TOKENS / 2, `${chunkTokens} tokens of chunks`);
  const prompt = loaded.model.detokenize(withRing, true);
  assert.ok(prompt.includes("--- src/f15.ts ---") && !prompt.includes("--- src/f0.ts ---"), "the newest are kept, the oldest go");
});

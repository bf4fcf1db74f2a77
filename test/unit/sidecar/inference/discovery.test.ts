import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { discoverModels } from "../../../../sidecar/inference/discovery.js";

function put(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

test("discovery finds GGUF files in LM Studio, Ollama blobs, the HF cache and node-llama-cpp's folder (issue 6, item 5)", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-home-"));
  try {
    put(path.join(home, ".lmstudio/models/lmstudio-community/Qwen/qwen-q4.gguf"), "GGUF....lm");
    put(path.join(home, ".cache/lm-studio/models/x/old.gguf"), "GGUF....old");
    put(path.join(home, ".ollama/models/blobs/sha256-aaaa"), "GGUF....ollama");
    put(path.join(home, ".ollama/models/blobs/sha256-bbbb"), '{"not":"a model"}');
    const blob = path.join(home, ".cache/huggingface/hub/models--o--r/blobs/123");
    put(blob, "GGUF....hf");
    const snap = path.join(home, ".cache/huggingface/hub/models--o--r/snapshots/abc/model-q8_0.gguf");
    fs.mkdirSync(path.dirname(snap), { recursive: true });
    fs.symlinkSync(blob, snap);
    put(path.join(home, ".node-llama-cpp/models/hf_x.gguf"), "GGUF....nlc");
    put(path.join(home, ".node-llama-cpp/models/fake.gguf"), "not gguf");
    const found = discoverModels(home);
    const bySource = found.map((m) => `${m.source}:${m.name}`).sort();
    assert.deepEqual(bySource, [
      "huggingface:model-q8_0.gguf",
      "lmstudio:old.gguf",
      "lmstudio:qwen-q4.gguf",
      "node-llama-cpp:hf_x.gguf",
      "ollama:sha256-aaaa",
    ]);
    assert.equal(found.find((m) => m.source === "huggingface")!.sizeBytes, "GGUF....hf".length);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test("model/discover lists Hearth's own models folder with each file's quantisation from its GGUF header (issue 10, item 3)", async () => {
  const { modelCatalog } = await import("../../../../sidecar/kernel/model/modelCatalog.js");
  const { ensureFixtureModels } = await import("../../../fixtures/models.js");
  const { chat } = ensureFixtureModels();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-home-"));
  try {
    const hearthModels = path.join(home, "hearth-models");
    fs.mkdirSync(hearthModels);
    fs.copyFileSync(chat, path.join(hearthModels, "tiny.gguf")); // no quantisation in the name: the header says
    put(path.join(home, ".lmstudio/models/x/y/junk-Q5_K_S.gguf"), "GGUF....");
    const catalog = await modelCatalog({ modelsDir: hearthModels, home, totalMemoryBytes: 8 * 1024 ** 3, cores: 4 });
    assert.deepEqual(
      catalog.found.map((m) => [m.source, m.name, m.quantization]),
      [
        ["lmstudio", "junk-Q5_K_S.gguf", "Q5_K_S"],
        ["hearth", "tiny.gguf", "F32"],
      ],
    );
    assert.equal(catalog.found[1]!.sizeBytes, fs.statSync(chat).size);
    assert.deepEqual(
      catalog.recommended.filter((r) => r.isDefault).map((r) => r.name),
      ["Qwen2.5-Coder 3B Instruct"],
    );
    assert.ok(catalog.recommended.every((r) => !r.downloaded && r.spec.startsWith("hf:") && r.sizeBytes > 0));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { parseModelSpec } from "../../../../sidecar/inference/modelSpec.js";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";

test("a model setting takes a GGUF path, an hf: URI, openai:URL#model or scripted:FILE (issue 6, item 5)", () => {
  assert.deepEqual(parseModelSpec("models/a.gguf", "/w"), { kind: "gguf", path: "/w/models/a.gguf" });
  assert.deepEqual(parseModelSpec("~/m/b.GGUF"), { kind: "gguf", path: path.join(os.homedir(), "m/b.GGUF") });
  assert.deepEqual(parseModelSpec("hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf"), {
    kind: "hf",
    uri: "hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf",
    repo: "Qwen/Qwen2.5-0.5B-Instruct-GGUF",
    file: "qwen2.5-0.5b-instruct-q8_0.gguf",
    branch: "main",
  });
  assert.deepEqual(parseModelSpec("hf:bartowski/Some-GGUF:Q4_K_M"), {
    kind: "hf",
    uri: "hf:bartowski/Some-GGUF:Q4_K_M",
    repo: "bartowski/Some-GGUF",
    file: null,
    branch: "main",
  });
  assert.deepEqual(parseModelSpec("openai:http://127.0.0.1:11434/v1/#qwen2.5:7b"), {
    kind: "openai",
    baseUrl: "http://127.0.0.1:11434/v1",
    model: "qwen2.5:7b",
  });
  assert.deepEqual(parseModelSpec("scripted:replay.json", "/w"), { kind: "scripted", path: "/w/replay.json" });
});

test("a malformed model setting is refused with what to write instead (STYLE: errors a person can act on)", () => {
  for (const bad of [
    "",
    "openai:http://x",
    "openai:ftp://x#m",
    "hf:onlyowner",
    "hf:a/b/c.bin",
    "https://example.com/m.gguf",
    "model.bin",
  ]) {
    assert.throws(
      () => parseModelSpec(bad),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.InvalidParams && /GGUF file path/.test(e.message),
      bad,
    );
  }
});

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { modelSettingProblem } from "../../../../extension/model/modelSettingProblem.js";

describe("a bad hearth.model path is said when the setting changes (issue 25 item 11)", () => {
  it("a missing absolute file is named with what to do; a file that is there is fine", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-model-setting-"));
    const there = path.join(dir, "m.gguf");
    fs.writeFileSync(there, "GGUF");
    assert.equal(modelSettingProblem(there, fs.existsSync), null);
    const missing = path.join(dir, "gone.gguf");
    assert.equal(
      modelSettingProblem(missing, fs.existsSync),
      `The model file ${missing} (the hearth.model setting) does not exist. Choose a model with Hearth: Select Model, or correct the path in Settings.`,
    );
    fs.rmSync(dir, { recursive: true });
  });

  it("specs the kernel resolves are not judged here: empty, hf:, openai:, scripted:, a bare name", () => {
    const never = () => {
      throw new Error("not a file to check");
    };
    for (const spec of ["", "  ", "hf:a/b/c.gguf", "openai:http://localhost:8080/v1#m", "scripted:/x/y.json", "qwen.gguf"])
      assert.equal(modelSettingProblem(spec, never), null, spec);
  });
});

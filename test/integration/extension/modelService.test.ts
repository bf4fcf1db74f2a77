// The model as the extension shows it (extension/model/modelService.ts) against a real kernel through
// the real supervisor: a failure names the model that failed, never the one loaded before it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { KernelSupervisor } from "../../../extension/kernel/kernelSupervisor.js";
import { ModelService } from "../../../extension/model/modelService.js";
import { modelDisplayName } from "../../../shared/protocol/modelView.js";
import { isolatedEnv } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";
import { quietLog, stopWindowKernels, windowKernel } from "../../support/windowKernel.js";

describe("the model a person is shown (issue 25 item 11)", () => {
  const kernels: KernelSupervisor[] = [];
  after(() => stopWindowKernels(kernels));

  it("a hearth.model path that is not there is the model said to have failed, not the model loaded before it; corrected, the loaded one shows again", async () => {
    const root = tempDir("model-service");
    const workspace = path.join(root, "ws");
    fs.mkdirSync(workspace);
    const script = path.join(root, "loaded-before.json");
    fs.writeFileSync(script, JSON.stringify({ rounds: [{ text: ["Hi."] }] }));
    const kernel = windowKernel(workspace, { ...isolatedEnv(root, 5), HEARTH_ALLOW_SCRIPTED: "1" });
    kernels.push(kernel);
    let setting = "";
    const service = new ModelService({
      kernel,
      setting: () => setting,
      setSetting: (spec) => {
        setting = spec;
        return Promise.resolve();
      },
      log: quietLog,
    });
    await service.use(`scripted:${script}`);
    assert.equal(service.current.state, "loaded");

    const missing = path.join(root, "not-there", "qwen2.5-coder-7b-instruct-q4_k_m.gguf");
    setting = missing;
    service.settingChanged();
    const shown = service.current;
    assert.equal(shown.state, "error");
    // What the model line and the status bar name: the path that failed.
    assert.equal(modelDisplayName(shown.spec ?? shown.setting), "qwen2.5-coder-7b-instruct-q4_k_m");
    assert.match(
      shown.error ?? "",
      /^The model file .*qwen2\.5-coder-7b-instruct-q4_k_m\.gguf \(the hearth\.model setting\) does not exist/,
    );

    setting = `scripted:${script}`;
    service.settingChanged();
    await new Promise<void>((resolve) => {
      const listener = service.onChange((s) => {
        if (s.state !== "loaded") return;
        listener.dispose();
        resolve();
      });
    });
    assert.equal(service.current.spec, `scripted:${script}`, "the kernel's loaded model, once the setting names it again");
    assert.equal(service.current.error, null);
    service.dispose();
  });
});

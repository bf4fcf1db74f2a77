// One LlamaAgentModel for a test file's tests: loaded before them (the fixture models made first if
// missing) and disposed after them, as each real-inference file needs.
import { after, before } from "node:test";
import { LlamaAgentModel } from "../../sidecar/inference/llama/llamaAgentModel.js";
import type { LlamaAdapterOptions } from "../../sidecar/inference/llama/adapterOptions.js";
import { ensureFixtureModels } from "../fixtures/models.js";

/** Loads the model `options` names (given the fixture models' paths) before the file's tests; `model` is it, once loaded. */
export function llamaModelForFile(options: (models: ReturnType<typeof ensureFixtureModels>) => LlamaAdapterOptions): {
  readonly model: LlamaAgentModel;
} {
  let model: LlamaAgentModel | undefined;
  before(async () => {
    model = await LlamaAgentModel.load(options(ensureFixtureModels()));
  });
  after(async () => {
    await model?.dispose();
  });
  return {
    get model() {
      if (!model) throw new Error("the model is loaded before the file's tests");
      return model;
    },
  };
}

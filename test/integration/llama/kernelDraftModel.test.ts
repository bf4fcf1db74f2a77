// The draft model setting through the whole kernel (issue 30, item 1; HEARTH_DRAFT_MODEL, which the
// extension sets from hearth.inference.draftModel): loaded beside each local chat model the kernel
// loads, reported by model/status, and refused there, with what to do, for a chat model whose
// vocabulary it does not share; the chat model loads either way.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("loads the named draft beside a chat model of its vocabulary and refuses it, in model/status, beside one of another", async () => {
  const models = ensureFixtureModels();
  const k = startTestKernel({
    env: {
      HEARTH_HOME: tempDir("home"),
      HEARTH_THREADS: "1",
      HEARTH_CONTEXT_SIZE: "1024",
      HEARTH_SESSIONS: "2",
      HEARTH_DRAFT_MODEL: models.copy,
    },
  });
  kernels.push(k);
  await k.client.initialize("test", "0");

  await k.client.request("model/load", { spec: models.copy });
  const loaded = await k.client.request("model/status", {});
  assert.equal(loaded.state, "loaded");
  assert.deepEqual(loaded.draft, { path: models.copy, state: "loaded", error: null });

  // Another chat model replaces the first and its draft; the copy fixture's 26 word tokens are ids the chat fixture lacks.
  await k.client.request("model/load", { spec: models.chat });
  const refused = await k.client.request("model/status", {});
  assert.equal(refused.state, "loaded");
  assert.equal(refused.spec, models.chat);
  assert.equal(refused.draft?.state, "refused");
  assert.match(
    refused.draft?.error ?? "",
    /tiny-qwen2-copy\.gguf does not share the chat model's vocabulary .*or clear hearth\.inference\.draftModel/,
  );
});

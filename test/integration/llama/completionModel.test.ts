// A separate completion model (issue 31, hearth.completions.model) through the whole kernel: a chat
// model without fill-in-the-middle tokens is loaded, and completions that name the fill-in-the-middle
// fixture are answered by it, loaded beside the chat model; without the name they fall back to the chat
// model (refused, it cannot fill in the middle); a named model without the tokens, or one that is not
// local, is refused with what to do, and the chat model stays the one loaded for chats.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

const prefix = "function add(a: number, b: number): number {\n  ";
const suffix = "\n}\n";
const refusedFor = (pattern: RegExp) => (e: unknown) => e instanceof KernelRequestError && pattern.test(e.message);

it("completes on the named completion model beside a chat model that cannot fill in the middle", async () => {
  const models = ensureFixtureModels();
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: "1024" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  await k.client.request("model/load", { spec: models.chat });
  assert.equal((await k.client.request("model/status", {})).infill, false);

  // Unset: the chat model, as before; it has no FIM tokens, so the refusal says what to do.
  await assert.rejects(
    k.client.request("completion/infill", { prefix, suffix }),
    refusedFor(/no fill-in-the-middle tokens.*choose a code model/),
  );

  const r = await k.client.request("completion/infill", { prefix, suffix, maxTokens: 16, model: models.fim });
  assert.equal(r.text, FIM_MODEL_MIDDLE);
  // The next keystroke reuses the completion model's sequence: it stayed loaded.
  const next = await k.client.request("completion/infill", { prefix: `${prefix}r`, suffix, maxTokens: 16, model: models.fim });
  assert.ok(next.reusedTokens > 0, `the completion model's KV was reused (${next.reusedTokens} reused)`);
  // The chat model is still the one loaded for chats.
  const status = await k.client.request("model/status", {});
  assert.equal(status.spec, models.chat);
  assert.equal(status.state, "loaded");

  await assert.rejects(
    k.client.request("completion/infill", { prefix, suffix, model: models.tool }),
    refusedFor(/the completion model .*tiny-qwen2-tool\.gguf has no fill-in-the-middle tokens.*hearth\.completions\.model/),
  );
  await assert.rejects(
    k.client.request("completion/infill", { prefix, suffix, model: "openai:http://127.0.0.1:9#m" }),
    refusedFor(/is not a local model.*GGUF file or an hf: URI in hearth\.completions\.model/),
  );
  // Naming the fill-in-the-middle model again loads it again and completes.
  assert.equal((await k.client.request("completion/infill", { prefix, suffix, model: models.fim })).text, FIM_MODEL_MIDDLE);
});

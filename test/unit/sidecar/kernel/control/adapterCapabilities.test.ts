// control plane #16, #17: which adapter a model spec selects, the boundary a session records for it, and the
// refusal of an unknown adapter.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { adapterDeclaration, adapterForModelSpec } from "../../../../../sidecar/kernel/control/adapterCapabilities.js";
import { openFixture } from "../../../../support/journalFixture.js";

it("control plane #16: a model spec selects its adapter: openai:, scripted:, and anything else (a GGUF path, hf:) is llama", () => {
  assert.equal(adapterForModelSpec("openai:http://127.0.0.1:8080/v1#qwen"), "openai");
  assert.equal(adapterForModelSpec("scripted:/tmp/script.json"), "scripted");
  assert.equal(adapterForModelSpec("/models/qwen.gguf"), "llama");
  assert.equal(adapterForModelSpec("hf:owner/repo:Q4_K_M"), "llama");
  assert.equal(adapterForModelSpec("models/scripted.gguf"), "llama", "the prefix, not a substring, selects");
});

it("control plane #17: a session records the exact adapter of its model and its local_user boundary", () => {
  const f = openFixture();
  const expected = { "/models/qwen.gguf": "llama", "openai:http://127.0.0.1:8080/v1#qwen": "openai", "scripted:x": "scripted" };
  for (const [model, adapter] of Object.entries(expected)) {
    const { sessionId } = f.control.createSession({ model });
    const profile = f.control.profile(sessionId);
    assert.deepEqual([profile.adapter, profile.credential_scope], [adapter, "local_user"], model);
    assert.deepEqual(f.journal.db.prepare(`SELECT provider_boundary FROM sessions WHERE session_id = ?`).get(sessionId), {
      provider_boundary: `local_user:${adapter}`,
    });
  }
  f.close();
});

it("control plane #16: an unknown adapter is refused with a message naming it and the adapters Hearth runs", () => {
  assert.throws(
    () => adapterDeclaration("hermes"),
    (e: unknown) =>
      e instanceof HearthError &&
      e.code === ErrorCode.Refused &&
      /hermes/.test(e.message) &&
      ["llama", "openai", "scripted"].every((a) => e.message.includes(a)),
  );
});

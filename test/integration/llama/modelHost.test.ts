// The kernel's one model: load with progress, status with capabilities (harness #20), clear refusals.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { ModelHost, type ModelProgress } from "../../../sidecar/kernel/model/modelHost.js";
import { modelHandlers } from "../../../sidecar/kernel/model/modelHandlers.js";
import { ShutdownGate } from "../../../sidecar/kernel/shutdownGate.js";
import type { RequestContext } from "../../../sidecar/kernel/clientChannel.js";
import type { Handlers } from "../../../sidecar/kernel/handlers/types.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-host-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("model/load reports progress notifications and model/status the chat wrapper's capabilities (issue 6; harness #20)", async () => {
  const { chat } = ensureFixtureModels();
  const host = new ModelHost({
    stateDir: path.join(dir, "kv"),
    modelsDir: path.join(dir, "models"),
    threads: 1,
    contextSize: 512,
    maxSessions: 1,
  });
  const handlers: Handlers = modelHandlers({ host, gate: new ShutdownGate(), modelsDir: path.join(dir, "models") });
  const notes: ModelProgress[] = [];
  const ctx = {
    clientId: "c",
    requestId: "1",
    signal: new AbortController().signal,
    client: {
      notify: (_m: string, p: ModelProgress) => notes.push(p),
      request: async () => {
        throw new Error("unused");
      },
    },
  } as unknown as RequestContext;
  assert.equal((await handlers["model/status"]!(undefined, ctx)).state, "none");
  assert.throws(
    () => host.current(),
    (e: unknown) => e instanceof HearthError && e.code === ErrorCode.ModelUnavailable && /model\/load/.test(e.message),
  );

  const loaded = await handlers["model/load"]!({ spec: chat }, ctx);
  assert.equal(loaded.state, "loaded");
  assert.ok(notes.length > 0 && notes.every((n) => n.phase === "load" && n.spec === chat));
  assert.equal(notes.at(-1)!.fraction, 1);
  const status = await handlers["model/status"]!(undefined, ctx);
  assert.deepEqual(status.capabilities, {
    systemRole: "proven",
    toolCalls: "proven",
    reasoningHistory: "disproven",
    thinkingToggle: "disproven", // the Qwen2.5 template has no thinking switch (harness #20)
  });
  assert.equal(host.current().adapter, "llama");

  await assert.rejects(
    host.load(path.join(dir, "missing.gguf")),
    (e: unknown) => e instanceof HearthError && /does not exist/.test(e.message),
  );
  const failed = host.status();
  assert.equal(failed.state, "error");
  assert.match(failed.error ?? "", /existing GGUF file/);
  await host.unload();
});

// Compaction holds its session like a turn (issue 23, item 9; control plane #10): while the summary
// is made no run is admitted, and a run sees the condensed view pinned at its admission, never one
// written while it waited for its model. The kernel's turn service over a real journal file.
import assert from "node:assert/strict";
import path from "node:path";
import { it } from "node:test";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { ModelHost } from "../../../sidecar/kernel/model/modelHost.js";
import { compactSession } from "../../../sidecar/kernel/turns/condensingService.js";
import { ScriptedModel } from "../../../sidecar/inference/scripted/scriptedModel.js";
import { kernelParts, kernelPartsLoadingModel, requestContext } from "../../support/inProcessTurns.js";

const conflict = (what: RegExp) => (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Conflict && what.test(e.message);

it("control plane #10: no turn is admitted while its session is being compacted, and compaction waits for no turn it raced", async () => {
  const k = kernelParts();
  const { sessionId } = k.scriptedSession([{ text: ["first answer"] }, { text: ["SUMMARY"] }, { text: ["after compaction"] }]);
  k.turns.start({ sessionId, message: "first" }, requestContext(k.client));
  assert.equal((await k.completion()).status, "completed");
  k.events.length = 0;
  k.control.appendMessages(sessionId, null, [{ role: "user", text: "a later note" }]);
  const models = new ModelHost({
    stateDir: path.join(k.root, "kv-compact"),
    modelsDir: path.join(k.root, "models"),
    scripted: async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" }),
  });
  const deps = { control: k.control, models, workspacePath: k.tools.workspace.canonicalPath, running: (id: string) => k.turns.running(id) };
  // The compaction is now waiting for its model: the session is held from its first step.
  const compacting = compactSession(deps, sessionId, k.client);
  assert.throws(() => k.turns.start({ sessionId, message: "while compacting" }, requestContext(k.client)), conflict(/is being compacted/));
  await assert.rejects(compactSession(deps, sessionId, k.client), conflict(/is being compacted/), "one compaction at a time");
  const condensation = await compacting;
  assert.ok(condensation, "the summary was written");
  assert.equal(k.control.history(sessionId).runs.length, 1, "no run was admitted during compaction");
  k.turns.start({ sessionId, message: "after" }, requestContext(k.client));
  assert.equal((await k.completion()).status, "completed", "the hold ends with the compaction");
  await models.unload();
  await k.close();
});

it("control plane #10: compaction is refused while the session has an active run, even one not running yet", async () => {
  const { k, loaded } = kernelPartsLoadingModel();
  const { sessionId } = k.scriptedSession([{ text: ["answered"] }]);
  k.turns.start({ sessionId, message: "queued behind the model load" }, requestContext(k.client));
  const models = new ModelHost({
    stateDir: path.join(k.root, "kv-compact"),
    modelsDir: path.join(k.root, "models"),
    scripted: async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" }),
  });
  const deps = { control: k.control, models, workspacePath: k.tools.workspace.canonicalPath, running: () => false };
  await assert.rejects(compactSession(deps, sessionId, k.client), conflict(/active run/));
  loaded();
  assert.equal((await k.completion()).status, "completed");
  await k.close();
});

it("control plane #10: a run sees the condensed view pinned at its admission, not one journaled while it waited", async () => {
  const { k, loaded } = kernelPartsLoadingModel();
  // The round fails unless the model is shown exactly these user messages: no summary in place of "earlier".
  const { sessionId } = k.scriptedSession([{ expectUsers: ["earlier", "the question"], text: ["answered"] }], "pinned.json");
  k.control.appendMessages(sessionId, null, [{ role: "user", text: "earlier" }]);
  const [earlier] = k.control.history(sessionId).messages;
  k.turns.start({ sessionId, message: "the question" }, requestContext(k.client));
  // While the run waits for its model, a view replacing "earlier" is journaled (written directly: the
  // kernel itself refuses to compact a session with an active run).
  k.control.recordCondensation({
    sessionId,
    turnId: null,
    trigger: "on_demand",
    fromSeq: earlier!.seq,
    throughSeq: earlier!.seq,
    summary: "made after the run was admitted",
    elidedCallIds: [],
    tokensBefore: 10,
    tokensAfter: 5,
  });
  loaded();
  const completed = await k.completion();
  assert.equal(completed.status, "completed", completed.error?.message);
  await k.close();
});

// A background task whose model called a made-up tool is resumed after its kernel died (issue 23,
// item 6): task resume rebuilds the session from its committed history like a chat turn does, and
// that history replays. The kernel's turn service over a real journal file; the crash is a second
// control plane reconciling the same file while the first kernel's turn waits for an approval.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { uuidv7 } from "../../../shared/ids.js";
import { openJournal } from "../../../sidecar/journal/journal.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import { buildSessionAgent } from "../../../sidecar/kernel/turns/sessionAgent.js";
import { ModelHost } from "../../../sidecar/kernel/model/modelHost.js";
import { ScriptedModel } from "../../../sidecar/inference/scripted/scriptedModel.js";
import { buildWorkspaceTools } from "../../../sidecar/tools/buildWorkspaceTools.js";
import { kernelParts } from "../../support/inProcessTurns.js";

it("committed history always replays: a resumed task whose model called a made-up tool runs (harness #5, #7)", async () => {
  const k = kernelParts();
  const script = path.join(k.root, "task.json");
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [
        // An effectful batch (list_dir is dispatched) commits the refused call with it.
        {
          toolCalls: [
            { name: "nosuch_tool", arguments: {} },
            { name: "list_dir", arguments: { path: "." } },
          ],
        },
        // Waits for a person who never answers while the kernel dies; after the resume it is denied.
        { toolCalls: [{ name: "write_file", arguments: { path: "b.txt", content: "x" } }] },
        { text: ["done after the resume"] },
      ],
    }),
  );
  const task = k.control.createTask(
    { parentSessionId: null, title: "t", prompt: "look around", model: `scripted:${script}`, tools: ["list_dir", "write_file"] },
    { clientId: "c", requestId: "1" },
  );
  k.control.markTaskRunning(task.taskId);
  const nobodyAnswers = { notify: k.client.notify, request: () => new Promise<never>(() => undefined) };
  k.turns.launch(task, { message: "look around" }, nobodyAnswers);
  const deadline = Date.now() + 20_000;
  while (!k.control.history(task.sessionId).messages.some((m) => m.role === "tool")) {
    if (Date.now() > deadline) throw new Error(`the first batch never committed: ${JSON.stringify(k.events)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  // The kernel dies here: the next one reconciles the journal and the task is orphaned.
  const journal = openJournal(path.join(k.root, "journal.sqlite"));
  const control = new ControlPlane(journal, { ownerId: "local:tester", workspace: path.join(k.root, "ws"), bootEpoch: uuidv7() });
  control.reconcile();
  await k.close();
  assert.equal(control.task(task.taskId).state, "orphaned");
  control.resumeTask(task.taskId, { clientId: "c", requestId: "2" });
  const [resumed] = control.queuedTasks();
  assert.ok(resumed, "the resumed task is queued as a new run");
  const models = new ModelHost({
    stateDir: path.join(k.root, "kv2"),
    modelsDir: path.join(k.root, "models"),
    scripted: async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" }),
  });
  const tools = buildWorkspaceTools({ workspaceRoot: path.join(k.root, "ws"), shell: false });
  const agent = await buildSessionAgent({ control, models, tools, offered: tools.tools, inventory: tools.tools }, resumed, k.client);
  const out = await agent.runTurn(control.turnContext(resumed.turnId).userMessage, { turnId: resumed.turnId });
  assert.equal(out.status, "completed", out.status === "completed" ? "" : out.failure.message);
  await models.unload();
  tools.close();
  journal.close();
});

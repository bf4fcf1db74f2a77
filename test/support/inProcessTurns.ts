// The kernel's turn service in this process, over a real journal file, real workspace tools, the
// real model host and session builder. `holdModelLoad` keeps buildAgent waiting, as a model load does.
import fs from "node:fs";
import path from "node:path";
import { uuidv7 } from "../../shared/ids.js";
import type { TurnEvent } from "../../shared/protocol/index.js";
import { openJournal } from "../../sidecar/journal/journal.js";
import { ControlPlane } from "../../sidecar/kernel/control/controlPlane.js";
import type { ClientChannel } from "../../sidecar/kernel/handlers/types.js";
import { ModelHost } from "../../sidecar/kernel/model/modelHost.js";
import { buildSessionAgent, type RunRef } from "../../sidecar/kernel/turns/sessionAgent.js";
import { TurnService } from "../../sidecar/kernel/turns/turnService.js";
import { ScriptedModel } from "../../sidecar/inference/scripted/scriptedModel.js";
import { buildWorkspaceTools } from "../../sidecar/tools/buildWorkspaceTools.js";
import { tempDir } from "./kernelProcess.js";

/** `modelSettled` stands in for the engine's native-work barrier (ModelHost.settled) where a test holds it. */
export function kernelParts(holdModelLoad?: Promise<void>, modelSettled?: (sessionId: string) => Promise<void>) {
  const root = tempDir("turns");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const journal = openJournal(path.join(root, "journal.sqlite"));
  const control = new ControlPlane(journal, { ownerId: "local:tester", workspace, bootEpoch: uuidv7() });
  const tools = buildWorkspaceTools({ workspaceRoot: workspace, shell: false });
  const models = new ModelHost({
    stateDir: path.join(root, "kv"),
    modelsDir: path.join(root, "models"),
    scripted: async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" }),
  });
  const events: TurnEvent[] = [];
  const client: ClientChannel = {
    notify: (method, params) => {
      if (method === "turn/event") events.push((params as { event: TurnEvent }).event);
    },
    request: async () => ({ decision: "deny", reason: "denied by the test" }) as never,
  };
  const turns = new TurnService({
    control,
    log: () => undefined,
    buildAgent: async (run: RunRef, c: ClientChannel) => {
      await holdModelLoad; // the kernel's one model slot is still loading
      return buildSessionAgent({ control, models, tools, offered: tools.tools }, run, c);
    },
    releaseModel: (runId: string) => models.release(runId),
    modelSettled,
  });
  const completion = async () => {
    const deadline = Date.now() + 10_000;
    while (!events.some((e) => e.type === "completed")) {
      if (Date.now() > deadline) throw new Error("no completed event");
      await new Promise((r) => setTimeout(r, 20));
    }
    return events.find((e) => e.type === "completed") as Extract<TurnEvent, { type: "completed" }>;
  };
  const attemptRow = (runId: string) =>
    journal.db
      .prepare(`SELECT status, cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE run_id = ?`)
      .get(runId);
  const close = async () => {
    await turns.stopAll();
    await models.unload();
    tools.close();
    journal.close();
  };
  /** A session on a scripted model whose script (`rounds`) is written to `<root>/<file>`. */
  const scriptedSession = (rounds: unknown[], file = "script.json") => {
    const script = path.join(root, file);
    fs.writeFileSync(script, JSON.stringify({ rounds }));
    return control.createSession({ model: `scripted:${script}` });
  };
  return { control, journal, tools, turns, client, events, completion, attemptRow, scriptedSession, close, root };
}

/** kernelParts whose model load waits until `loaded()` is called. */
export function kernelPartsLoadingModel() {
  let loaded!: () => void;
  const k = kernelParts(
    new Promise<void>((r) => {
      loaded = r;
    }),
  );
  return { k, loaded: () => loaded() };
}

export const requestContext = (client: ClientChannel) => ({ clientId: "c", requestId: "1", signal: new AbortController().signal, client });

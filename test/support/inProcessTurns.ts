// The kernel in this process, built by the kernel's own constructor (createKernel) over a real
// journal file, real workspace tools, the real model host and session builder. `holdModelLoad`
// keeps the scripted model's load waiting, as a slow model load does; `env` is the kernel's environment.
import fs from "node:fs";
import path from "node:path";
import { parseKernelEnv } from "../../shared/kernelSettings.js";
import { kernelSettingsView } from "../../shared/node/kernelSettingsView.js";
import type { TurnEvent } from "../../shared/protocol/index.js";
import { HEARTH_VERSION } from "../../shared/version.js";
import type { ClientChannel } from "../../sidecar/kernel/clientChannel.js";
import { createKernel } from "../../sidecar/kernel/kernel.js";
import { ScriptedModel } from "../../sidecar/inference/scripted/scriptedModel.js";
import { tempDir } from "./kernelProcess.js";

/**
 * `env`: the kernel's environment. `modelSettled` stands in for the engine's native-work barrier
 * (ModelHost.settled) where a test holds it; `log` hears the kernel's log lines.
 */
export function kernelParts(
  holdModelLoad?: Promise<void>,
  env: Record<string, string> = {},
  modelSettled?: (sessionId: string) => Promise<void>,
  log: (line: string) => void = () => undefined,
) {
  const root = tempDir("turns");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const parsed = parseKernelEnv(env);
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const kernel = createKernel(
    {
      config: {
        kernelVersion: HEARTH_VERSION,
        workspaceRoot: fs.realpathSync(workspace),
        journalPath: path.join(root, "journal.sqlite"),
        modelSpec: null,
      },
      env: parsed.env,
      view: kernelSettingsView(env),
    },
    {
      log,
      ownerId: "local:tester",
      home: root,
      exit: () => undefined,
      scripted: async (file) => {
        await holdModelLoad; // the kernel's one model slot is still loading
        return ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" });
      },
    },
  );
  // The turn service reaches the barrier through the model host, so holding it there holds the kernel's.
  if (modelSettled) kernel.parts.models.settled = modelSettled;
  const { control, journal, tools, turns } = kernel.parts;
  const events: TurnEvent[] = [];
  const client: ClientChannel = {
    notify: (method, params) => {
      if (method === "turn/event") events.push((params as { event: TurnEvent }).event);
    },
    request: async () => ({ decision: "deny", reason: "denied by the test" }) as never,
  };
  const completion = async () => {
    const deadline = Date.now() + 10_000;
    while (!events.some((e) => e.type === "completed")) {
      if (Date.now() > deadline) throw new Error("no completed event");
      await new Promise((r) => setTimeout(r, 20));
    }
    return events.find((e) => e.type === "completed") as Extract<TurnEvent, { type: "completed" }>;
  };
  const attemptRow = (turnId: string) =>
    journal.db
      .prepare(`SELECT status, cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE run_id = ?`)
      .get(turnId);
  const close = () => kernel.shutdown();
  /** A session on a scripted model whose script (`rounds`) is written to `<root>/<file>`. */
  const scriptedSession = (rounds: unknown[], file = "script.json") => {
    const script = path.join(root, file);
    fs.writeFileSync(script, JSON.stringify({ rounds }));
    return control.createSession({ model: `scripted:${script}` });
  };
  return { kernel, control, journal, tools, turns, client, events, completion, attemptRow, scriptedSession, close, root };
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

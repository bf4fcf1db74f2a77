// model/status, model/load, model/cancelLoad and model/discover: the one model of this kernel, with
// load progress as notifications, and the models a person can choose from.
import type { Handlers } from "../handlers/types.js";
import type { ShutdownGate } from "../shutdownGate.js";
import { modelCatalog } from "./modelCatalog.js";
import type { ModelHost } from "./modelHost.js";

export function modelHandlers(deps: { host: ModelHost; gate: ShutdownGate; modelsDir: string }): Handlers {
  return {
    "model/status": async () => {
      const s = deps.host.status();
      return { state: s.state, spec: s.spec, error: s.error, ...(s.capabilities ? { capabilities: { ...s.capabilities } } : {}) };
    },
    "model/load": async (params, ctx) => {
      deps.gate.assertAccepting("model/load");
      await deps.host.load(params.spec, (p) => ctx.client.notify("model/progress", p));
      return { state: deps.host.status().state, spec: params.spec };
    },
    "model/cancelLoad": async () => deps.host.cancelLoad(),
    "model/discover": async () => modelCatalog({ modelsDir: deps.modelsDir }),
  };
}

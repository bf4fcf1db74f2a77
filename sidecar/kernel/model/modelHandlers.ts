// model/status and model/load: the one model of this kernel, with load progress as notifications.
import type { Handlers } from "../handlers/types.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { ModelHost } from "./modelHost.js";

export function modelHandlers(deps: { host: ModelHost; gate: ShutdownGate }): Handlers {
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
  };
}

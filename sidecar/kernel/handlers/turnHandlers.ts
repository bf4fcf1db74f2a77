// turn/start and turn/cancel: thin calls into the turn service.
import type { ShutdownGate } from "../shutdownGate.js";
import type { TurnService } from "../turns/turnService.js";
import type { Handlers } from "./types.js";

export function turnHandlers(deps: { turns: TurnService; gate: ShutdownGate }): Handlers {
  return {
    "turn/start": async (params, ctx) => {
      deps.gate.assertAccepting("turn/start");
      return deps.turns.start(params, ctx);
    },
    "turn/cancel": async (params) => deps.turns.cancel(params.runId),
  };
}

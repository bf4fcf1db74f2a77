// turn/start, turn/cancel, turn/follow and session/compact: thin calls into the turn service and condensing.
import type { Condensation } from "../../../shared/protocol/records.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { TurnService } from "../turns/turnService.js";
import type { ClientChannel, Handlers } from "./types.js";

export function turnHandlers(deps: {
  turns: TurnService;
  gate: ShutdownGate;
  compact: (sessionId: string, client: ClientChannel) => Promise<Condensation | null>;
}): Handlers {
  return {
    "turn/start": async (params, ctx) => {
      deps.gate.assertAccepting("turn/start");
      return deps.turns.start(params, ctx);
    },
    "turn/cancel": async (params) => deps.turns.cancel(params.runId),
    "turn/follow": async (params, ctx) => deps.turns.follow(params.runId, ctx.client),
    "session/compact": async (params, ctx) => {
      deps.gate.assertAccepting("session/compact");
      return { condensation: await deps.compact(params.sessionId, ctx.client) };
    },
  };
}

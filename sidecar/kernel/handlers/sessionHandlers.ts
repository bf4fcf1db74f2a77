// session/create, session/list, session/history: thin calls into the control plane.
import type { ControlPlane } from "../control/controlPlane.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { Handlers } from "./types.js";

export function sessionHandlers(deps: { control: ControlPlane; gate: ShutdownGate; defaultModel: string | null }): Handlers {
  return {
    "session/create": async (params) => {
      deps.gate.assertAccepting("session/create");
      return deps.control.createSession({ ...params, model: params.model ?? deps.defaultModel ?? undefined });
    },
    "session/list": async (params) => ({ sessions: deps.control.listSessions(params?.limit ?? 100) }),
    "session/history": async (params) => deps.control.history(params.sessionId),
  };
}

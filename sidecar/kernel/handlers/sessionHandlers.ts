// session/create, session/list, session/history, session/rename, session/hide, session/fork: thin calls into the control plane.
import type { ControlPlane } from "../control/controlPlane.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { Handlers } from "./types.js";

export function sessionHandlers(deps: { control: ControlPlane; gate: ShutdownGate; defaultModel: string | null }) {
  return {
    "session/create": async (params) => {
      deps.gate.assertAccepting("session/create");
      return deps.control.createSession({ ...params, model: params.model ?? deps.defaultModel ?? undefined });
    },
    "session/list": async (params) => ({ sessions: deps.control.listSessions(params?.limit ?? 100) }),
    "session/history": async (params) => deps.control.history(params.sessionId, params),
    "session/rename": async (params) => ({ session: deps.control.renameSession(params.sessionId, params.title) }),
    "session/fork": async (params) => {
      deps.gate.assertAccepting("session/fork");
      return deps.control.forkSession(params.sessionId, params.atSeq);
    },
    "session/hide": async (params) => {
      deps.control.hideSession(params.sessionId);
      return { sessionId: params.sessionId, hidden: true as const };
    },
  } satisfies Handlers;
}

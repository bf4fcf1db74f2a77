// session/keepTools (issue 25 item 2): a session goes on with its earlier tools; keepTools.ts decides.
import type { ShutdownGate } from "../shutdownGate.js";
import { keepSessionTools } from "../turns/keepTools.js";
import type { SessionAgentDeps } from "../turns/sessionAgent.js";
import type { Handlers } from "./types.js";

export function keepToolsHandler(deps: { agents: SessionAgentDeps; gate: ShutdownGate }) {
  return {
    "session/keepTools": async (params) => {
      deps.gate.assertAccepting("session/keepTools");
      return { sessionId: params.sessionId, tools: await keepSessionTools(deps.agents, params.sessionId, params.readOnly === true) };
    },
  } satisfies Handlers;
}

// session/rewindPreview, session/rewind, session/undoRewind: thin calls into the rewind service (issue 29 item 1).
import type { ShutdownGate } from "../shutdownGate.js";
import type { RewindService } from "../undo/rewindService.js";
import type { Handlers } from "./types.js";

export function rewindHandlers(deps: { rewinds: RewindService; gate: ShutdownGate }) {
  return {
    "session/rewindPreview": async (params) => deps.rewinds.preview(params.sessionId, params.toSeq),
    "session/rewind": async (params) => {
      deps.gate.assertAccepting("session/rewind");
      return deps.rewinds.rewind(params.sessionId, params.toSeq, params.scope);
    },
    "session/undoRewind": async (params) => {
      deps.gate.assertAccepting("session/undoRewind");
      return deps.rewinds.undo(params.rewindId);
    },
  } satisfies Handlers;
}

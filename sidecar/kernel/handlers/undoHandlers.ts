// turn/edits and turn/undoEdits: thin calls into the undo of a turn's edits (issue 14 item 5).
import type { ShutdownGate } from "../shutdownGate.js";
import type { TurnEditsService } from "../undo/turnEdits.js";
import type { Handlers } from "./types.js";

export function undoHandlers(deps: { edits: TurnEditsService; gate: ShutdownGate }) {
  return {
    "turn/edits": async (params) => ({ turns: deps.edits.list(params.sessionId) }),
    "turn/undoEdits": async (params) => {
      deps.gate.assertAccepting("turn/undoEdits");
      return deps.edits.undo(params.turnId);
    },
  } satisfies Handlers;
}

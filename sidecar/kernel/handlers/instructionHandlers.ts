// instructions/list and instructions/set (issue 27, item 1): what the next turn is shown as project
// instructions, and the person's switch for each source.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { InstructionReader } from "../context/instructionReader.js";
import type { Handlers } from "./types.js";

export function instructionHandlers(deps: { instructions: InstructionReader; control: Pick<ControlPlane, "setInstructionEnabled"> }) {
  return {
    "instructions/list": async (params) => (await deps.instructions(params?.readOnly === true)).inForce,
    "instructions/set": async (params) => {
      const now = await deps.instructions(params.readOnly === true);
      if (!now.inForce.sources.some((s) => s.path === params.path)) {
        const known = now.inForce.sources.map((s) => s.path).join(", ") || "none";
        throw new HearthError(
          ErrorCode.InvalidParams,
          `refused: ${JSON.stringify(params.path)} is not one of this workspace's instruction sources (${known}); ` +
            "`hearth instructions` lists them",
        );
      }
      deps.control.setInstructionEnabled(params.path, params.enabled);
      return (await deps.instructions(params.readOnly === true)).inForce;
    },
  } satisfies Handlers;
}

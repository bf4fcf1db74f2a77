// Reads the project instructions as they are now (issue 27, item 1): the workspace's instruction
// files through the anchored descriptor, the person's switches from the journal, the person's own
// rules from the settings. Called before each admission, which pins the result (control plane #10).
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import type { ControlPlane } from "../control/controlPlane.js";
import { pinInstructions, type PinnedInstructions } from "./projectInstructions.js";

export interface InstructionReaderDeps {
  tools: Pick<WorkspaceTools, "instructionFiles">;
  control: Pick<ControlPlane, "disabledInstructions">;
  /** hearth.instructions.personal (HEARTH_PERSONAL_INSTRUCTIONS); "" for none. */
  personal: string;
}

/** `mode` picks Roo's per-mode rules folder (.roo/rules-MODE/); default code. */
export type InstructionReader = (restricted: boolean, mode?: string) => Promise<PinnedInstructions>;

export function instructionReader(deps: InstructionReaderDeps): InstructionReader {
  return async (restricted, mode) =>
    pinInstructions({
      scan: await deps.tools.instructionFiles(mode),
      personal: deps.personal,
      disabled: deps.control.disabledInstructions(),
      restricted,
    });
}

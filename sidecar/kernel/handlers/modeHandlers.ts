// modes/list and modes/import (issue 27, item 2): the modes a turn may be started in and the mode
// files not read; Roo Code's .roomodes written as .hearth/modes files, through the workspace descriptor.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import { MODES_FOLDER, type ModeReader } from "../modes/modeCatalog.js";
import { importRoomodes } from "../modes/roomodesImport.js";
import type { Handlers } from "./types.js";

const ROOMODES_MAX_BYTES = 256 << 10;
const MODE_FILE_MAX_BYTES = 64 << 10;

export function modeHandlers(deps: { modes: ModeReader; tools: Pick<WorkspaceTools, "readText" | "editText"> }) {
  return {
    "modes/list": async (params) => {
      const { modes, problems } = await deps.modes.catalog(params?.readOnly === true);
      return {
        modes: modes.map(({ name, description, tools, source }) => ({ name, description, tools: [...tools], source })),
        problems: [...problems],
      };
    },
    "modes/import": async (params) => {
      if (params?.readOnly === true)
        throw new HearthError(
          ErrorCode.Refused,
          "refused to import .roomodes: the folder is not trusted (Restricted Mode); trust it, then import",
        );
      const read = deps.tools.readText(".roomodes", ROOMODES_MAX_BYTES);
      if (!read.ok) throw new HearthError(ErrorCode.Refused, `refused to import .roomodes: ${read.message}`);
      if (read.text === null) throw new HearthError(ErrorCode.NotFound, "there is no .roomodes file at the workspace root to import");
      const imported = importRoomodes(read.text);
      if (!imported.ok) throw new HearthError(ErrorCode.InvalidParams, `refused to import: ${imported.problem}`);
      const written: string[] = [];
      const notes = [...imported.notes];
      for (const mode of imported.modes) {
        const path = `${MODES_FOLDER}/${mode.name}.md`;
        let existed = false;
        const r = deps.tools.editText(path, MODE_FILE_MAX_BYTES, (current) => {
          existed = current !== null;
          return existed ? null : mode.text; // the person's own file wins: never overwritten
        });
        if (!r.ok) notes.push(`${path}: not written (${r.message})`);
        else if (existed) notes.push(`${path}: exists already, kept as it is; remove it and import again to replace it`);
        else written.push(path);
      }
      return { written, notes };
    },
  } satisfies Handlers;
}

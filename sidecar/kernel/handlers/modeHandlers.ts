// modes/list (issue 27, item 2): the modes a turn may be started in, and the mode files not read.
import type { ModeReader } from "../modes/modeCatalog.js";
import type { Handlers } from "./types.js";

export function modeHandlers(deps: { modes: ModeReader }) {
  return {
    "modes/list": async (params) => {
      const { modes, problems } = await deps.modes.catalog(params?.readOnly === true);
      return {
        modes: modes.map(({ name, description, tools, source }) => ({ name, description, tools: [...tools], source })),
        problems: [...problems],
      };
    },
  } satisfies Handlers;
}

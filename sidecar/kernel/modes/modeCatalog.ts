// The modes a run may be started in: the built-in ones and the workspace's .hearth/modes/*.md, read
// through the workspace descriptor before each admission (so an edited file applies from the next
// turn) and pinned in the run's context snapshot (control plane #10) with the tools it names.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import { BUILTIN_MODES, DEFAULT_MODE, type ModeDefinition, parseModeFile } from "./modeDefinitions.js";

export const MODES_FOLDER = ".hearth/modes";

export interface ModeCatalog {
  readonly modes: readonly ModeDefinition[];
  /** Files that were not read as modes, each with its reason. */
  readonly problems: readonly string[];
}

/** The mode a run is pinned with: its definition as read at admission. */
export type PinnedMode = ModeDefinition;

export type ModeReader = {
  catalog(restricted: boolean): Promise<ModeCatalog>;
  /** The named mode (default Code); a HearthError that lists the modes there are when there is none by that name. */
  resolve(name: string | undefined, restricted: boolean): Promise<PinnedMode>;
};

export function modeReader(tools: Pick<WorkspaceTools, "folderTexts">): ModeReader {
  const catalog = async (restricted: boolean): Promise<ModeCatalog> => {
    // An untrusted folder's files may be written to steer the agent: in Restricted Mode only the built-in modes exist.
    if (restricted) return { modes: BUILTIN_MODES, problems: [] };
    const { files, note } = await tools.folderTexts(MODES_FOLDER, ".md");
    const modes = [...BUILTIN_MODES];
    const problems = note ? [note] : [];
    for (const file of files) {
      const parsed =
        file.text === null ? { ok: false as const, problem: `${file.path}: ${file.problem}` } : parseModeFile(file.path, file.text);
      if (!parsed.ok) problems.push(parsed.problem);
      else if (modes.some((m) => m.name === parsed.mode.name))
        problems.push(
          `${file.path}: a mode named ${parsed.mode.name} exists already (${modes.find((m) => m.name === parsed.mode.name)!.source}); give it another name`,
        );
      else modes.push(parsed.mode);
    }
    return { modes, problems };
  };
  return {
    catalog,
    async resolve(name, restricted) {
      const wanted = name ?? DEFAULT_MODE;
      const { modes, problems } = await catalog(restricted);
      const found = modes.find((m) => m.name === wanted);
      if (found) return found;
      const why = restricted ? " (the folder is not trusted: its .hearth/modes are not read in Restricted Mode)" : "";
      const skipped = problems.length > 0 ? `; not read: ${problems.join("; ")}` : "";
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused mode ${JSON.stringify(wanted)}: there is no such mode${why}. The modes are ${modes.map((m) => m.name).join(", ")}; ` +
          `add one as ${MODES_FOLDER}/${wanted}.md${skipped}`,
      );
    },
  };
}

/** The system prompt with the mode's instructions at its end (none for Code, so its prompt is as before modes). */
export function withMode(systemPrompt: string, mode: Pick<ModeDefinition, "instructions"> | undefined): string {
  return mode && mode.instructions !== "" ? `${systemPrompt}\n\n${mode.instructions}` : systemPrompt;
}

/** The names of `tools` the mode offers: each covered by one of its groups or named in it. */
export function offeredByMode(mode: Pick<ModeDefinition, "tools">, tools: readonly { name: string; effectClass: string }[]): Set<string> {
  const wanted = new Set(mode.tools);
  const group = (t: { name: string; effectClass: string }): string => {
    if (t.name.startsWith("mcp_")) return "mcp"; // an MCP tool is never read-only to us: its server decides what it does
    if (t.effectClass === "read") return "read";
    if (t.name === "write_file" || t.name === "edit_file") return "edit";
    if (t.name === "shell") return "command";
    if (t.name === "web_fetch") return "browser";
    if (t.name === "delegate_task") return "tasks";
    return "";
  };
  return new Set(tools.filter((t) => wanted.has("*") || wanted.has(t.name) || wanted.has(group(t))).map((t) => t.name));
}

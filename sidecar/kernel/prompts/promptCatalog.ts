// The workspace's prompt files (issue 27, item 3), read through the workspace descriptor each time
// they are listed or run (an edited file applies at once): Hearth's own first, then VS Code Copilot's,
// then Claude Code's commands; a name taken by an earlier one is listed with that problem, never
// run in its place. A mode a file names must be one of the workspace's modes.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { PromptList, PromptOrigin, PromptView } from "../../../shared/protocol/prompts.js";
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import type { ModeReader } from "../modes/modeCatalog.js";
import { type PromptDefinition, parsePromptFile, promptSlug } from "./promptFile.js";

export const PROMPT_FOLDERS: readonly { folder: string; suffix: string; origin: PromptOrigin }[] = [
  { folder: ".hearth/prompts", suffix: ".md", origin: "hearth" },
  { folder: ".github/prompts", suffix: ".prompt.md", origin: "copilot" },
  { folder: ".claude/commands", suffix: ".md", origin: "claude" },
];

const RESTRICTED_NOTE =
  "the folder is not trusted (Restricted Mode): its prompt files are not read, since a file written to steer the agent " +
  "would be sent as your message; trust the folder to use them";

export type PromptReader = {
  list(restricted: boolean): Promise<PromptList>;
  /** The named prompt, ready to expand; a HearthError that says why when it cannot run or there is none. */
  find(name: string, restricted: boolean): Promise<PromptDefinition>;
};

export function promptReader(deps: { tools: Pick<WorkspaceTools, "folderTexts">; modes: Pick<ModeReader, "catalog"> }): PromptReader {
  const read = async (restricted: boolean): Promise<{ found: Found[]; notes: string[] }> => {
    if (restricted) return { found: [], notes: [RESTRICTED_NOTE] };
    const modes = (await deps.modes.catalog(false)).modes.map((m) => m.name);
    const found: Found[] = [];
    const notes: string[] = [];
    for (const { folder, suffix, origin } of PROMPT_FOLDERS) {
      const { files, note } = await deps.tools.folderTexts(folder, suffix);
      if (note) notes.push(note);
      for (const file of files) found.push(readOne(file, suffix, origin, modes, found));
    }
    return { found, notes };
  };
  return {
    async list(restricted) {
      const { found, notes } = await read(restricted);
      return { prompts: found.map(view), notes };
    },
    async find(name, restricted) {
      const { found, notes } = await read(restricted);
      const hit = found.find((f) => f.name === name && f.prompt) ?? found.find((f) => f.name === name);
      if (hit?.prompt) return hit.prompt;
      if (hit) throw new HearthError(ErrorCode.InvalidParams, `refused /${name}: ${hit.problem}`);
      const names = found.filter((f) => f.prompt).map((f) => f.name);
      throw new HearthError(
        ErrorCode.NotFound,
        `there is no prompt file named ${JSON.stringify(name)}${restricted ? ` (${RESTRICTED_NOTE})` : ""}. ` +
          `The prompts are ${names.join(", ") || "none"}; add one as .hearth/prompts/${name}.md` +
          (notes.length > 0 && !restricted ? `; ${notes.join("; ")}` : ""),
      );
    },
  };
}

type Found = { name: string; source: string; origin: PromptOrigin; prompt?: PromptDefinition; problem?: string };

function readOne(
  file: { path: string; text: string | null; cut: boolean; problem?: string },
  suffix: string,
  origin: PromptOrigin,
  modes: readonly string[],
  earlier: readonly Found[],
): Found {
  const base = { name: promptSlug(file.path, suffix), source: file.path, origin };
  if (file.text === null) return { ...base, problem: `${file.path}: ${file.problem}` };
  // A prompt cut short would be sent as something other than what the file says.
  if (file.cut) return { ...base, problem: `${file.path}: it is longer than the prompt file bound (32 KiB); shorten it` };
  const parsed = parsePromptFile(file.path, file.text, origin, suffix);
  if (!parsed.ok) return { ...base, name: parsed.name, problem: parsed.problem };
  const { prompt } = parsed;
  const taken = earlier.find((f) => f.name === prompt.name && f.prompt);
  if (taken)
    return { ...base, name: prompt.name, problem: `${file.path}: /${prompt.name} is taken by ${taken.source}; rename one of them` };
  if (prompt.mode !== null && !modes.includes(prompt.mode))
    return {
      ...base,
      name: prompt.name,
      problem: `${file.path}: mode ${JSON.stringify(prompt.mode)} is not one of the modes (${modes.join(", ")}); add it as .hearth/modes/${prompt.mode}.md or change the file's mode`,
    };
  return { ...base, name: prompt.name, prompt };
}

function view(f: Found): PromptView {
  const p = f.prompt;
  return {
    name: f.name,
    description: p?.description ?? "",
    argumentHint: p?.argumentHint ?? "",
    source: f.source,
    origin: f.origin,
    mode: p?.mode ?? null,
    inputs: p ? [...p.inputs] : [],
    needs: p ? { ...p.needs } : { selection: false, file: false },
    ignored: p ? [...p.ignored] : [],
    ...(f.problem ? { problem: f.problem } : {}),
  };
}

// A prompt file (issue 27, item 3) read as a slash command: optional YAML front matter (VS Code
// Copilot's `description`, `mode`/`agent`, `argument-hint`, `name`; Claude Code's the same), then the
// body that becomes the message. Every problem is named with where the format is described.
import { parseDocument } from "yaml";
import type { PromptInput, PromptOrigin } from "../../../shared/protocol/prompts.js";
import { variablesOf } from "./promptExpand.js";

export interface PromptDefinition {
  readonly name: string;
  readonly description: string;
  readonly argumentHint: string;
  readonly source: string;
  readonly origin: PromptOrigin;
  /** The Hearth mode it names (Copilot's `agent` and `edit` are Code); null: none named. */
  readonly mode: string | null;
  readonly inputs: readonly PromptInput[];
  readonly needs: { readonly selection: boolean; readonly file: boolean };
  readonly ignored: readonly string[];
  /** The text after the front matter, trimmed. */
  readonly body: string;
}

export type ParsedPrompt = { ok: true; prompt: PromptDefinition } | { ok: false; name: string; problem: string };

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** The closing `---` is a line of its own (an empty block too), never the end of a value's line. */
const FRONT_MATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;
/** Copilot's chat modes, as Hearth's: its `agent` and `edit` change files, which is Code. */
const COPILOT_MODES: Record<string, string> = { agent: "code", edit: "code" };

/** The file's name less its convention's suffix (`fix.prompt.md` → `fix`), lowercased: the command's name. */
export function promptSlug(path: string, suffix: string): string {
  const file = path.slice(path.lastIndexOf("/") + 1);
  return (file.endsWith(suffix) ? file.slice(0, -suffix.length) : file).toLowerCase();
}

export function parsePromptFile(path: string, text: string, origin: PromptOrigin, suffix: string): ParsedPrompt {
  let name = promptSlug(path, suffix);
  const refuse = (why: string): ParsedPrompt => ({
    ok: false,
    name,
    problem: `${path}: ${why}; see docs/prompts.md for the format (optional front matter with description and mode, then the prompt)`,
  });
  const parts = FRONT_MATTER.exec(text);
  let fields: Record<string, unknown> = {};
  if (parts) {
    const doc = parseDocument(parts[1] ?? "");
    if (doc.errors.length > 0) return refuse(`its front matter is not YAML (${doc.errors[0]!.message.split("\n")[0]})`);
    const js = doc.toJS() as unknown;
    if (js !== null && (typeof js !== "object" || Array.isArray(js))) return refuse("its front matter is not a set of `key: value` lines");
    fields = (js ?? {}) as Record<string, unknown>;
  }
  const { name: named, description = "", mode, agent, "argument-hint": hint = "", ...rest } = fields;
  if (named !== undefined) {
    if (typeof named !== "string" || !NAME.test(named))
      return refuse(`name ${JSON.stringify(named)} must be lowercase letters, digits, dots, dashes and underscores, at most 64`);
    name = named;
  }
  if (!NAME.test(name))
    return refuse(
      `its name ${JSON.stringify(name)} is not a command name (lowercase letters, digits, dots, dashes, underscores); rename the file`,
    );
  if (typeof description !== "string") return refuse("description must be text");
  if (typeof hint !== "string") return refuse("argument-hint must be text");
  if (mode !== undefined && agent !== undefined) return refuse("it names both mode and agent; keep one");
  const wanted = mode ?? agent;
  if (wanted !== undefined && (typeof wanted !== "string" || wanted.trim() === ""))
    return refuse("mode must be a mode's name, e.g. `mode: ask`");
  const body = (parts ? parts[2]! : text).trim();
  if (body === "") return refuse("it has no prompt after its front matter: nothing to send");
  const vars = variablesOf(body, origin);
  if (!vars.ok) return refuse(vars.problem);
  const modeName = typeof wanted === "string" ? wanted.trim().toLowerCase() : null;
  return {
    ok: true,
    prompt: {
      name,
      description,
      argumentHint: hint,
      source: path,
      origin,
      mode: modeName === null ? null : (COPILOT_MODES[modeName] ?? modeName),
      inputs: vars.inputs,
      needs: vars.needs,
      ignored: Object.keys(rest),
      body,
    },
  };
}

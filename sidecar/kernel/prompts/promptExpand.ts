// A prompt file's variables and their expansion (issue 27, item 3). VS Code's: `${input:name}` and
// `${input:name:placeholder}` (asked of the person), `${selection}`/`${selectedText}`, `${file}` and
// its parts, `${workspaceFolder}`; the text after the command as `$ARGUMENTS` (Claude Code) or
// `{{args}}` (Gemini CLI), and Claude's `$1`…`$9`. One pass over the body: a value filled in is never
// expanded again (a selection that contains `${file}` stays as selected). Any other `${…}` is left as
// written, as VS Code does: prompts quote code.
import type { PromptInput, PromptOrigin } from "../../../shared/protocol/prompts.js";

const EDITOR_VARS = [
  "selection",
  "selectedText",
  "file",
  "fileBasename",
  "fileBasenameNoExtension",
  "fileDirname",
  "workspaceFolder",
  "workspaceFolderBasename",
] as const;
type EditorVar = (typeof EDITOR_VARS)[number];
const INPUT = /^input:([A-Za-z_][A-Za-z0-9_-]*)(?::([\s\S]*))?$/;

function tokens(origin: PromptOrigin): RegExp {
  const positional = origin === "claude" ? "|\\$(?<digit>[1-9])" : "";
  return new RegExp(`\\$\\{(?<inner>[^{}\\n]*)\\}|\\$ARGUMENTS\\b|\\{\\{args\\}\\}${positional}`, "g");
}

export type Variables = { ok: true; inputs: PromptInput[]; needs: { selection: boolean; file: boolean } } | { ok: false; problem: string };

/** The questions a body asks (each input once, the first placeholder given) and the editor parts it needs. */
export function variablesOf(body: string, origin: PromptOrigin): Variables {
  const inputs: PromptInput[] = [];
  const needs = { selection: false, file: false };
  for (const m of body.matchAll(tokens(origin))) {
    const inner = m.groups?.inner;
    if (inner === undefined) continue;
    if (inner.startsWith("input:")) {
      const input = INPUT.exec(inner);
      if (!input)
        return { ok: false, problem: `\`\${${inner}}\` is not an input: write \`\${input:name}\` or \`\${input:name:placeholder}\`` };
      const known = inputs.find((i) => i.name === input[1]);
      if (!known) inputs.push({ name: input[1]!, placeholder: input[2] ?? "" });
      else if (known.placeholder === "" && input[2]) inputs[inputs.indexOf(known)] = { name: known.name, placeholder: input[2] };
    } else if (inner === "selection" || inner === "selectedText") needs.selection = true;
    else if (inner.startsWith("file")) needs.file ||= (EDITOR_VARS as readonly string[]).includes(inner);
  }
  return { ok: true, inputs, needs };
}

export interface ExpansionValues {
  /** The text after `/name`, trimmed ("" for none). */
  readonly args: string;
  readonly inputs: Readonly<Record<string, string>>;
  /** Workspace-relative, `/`-separated. */
  readonly file?: string;
  readonly selection?: string;
  /** The workspace folder's absolute path. */
  readonly workspaceFolder: string;
}

export type Expansion = { ok: true; text: string } | { ok: false; problem: string };

/**
 * The body with every variable filled in. The arguments go where the body says; a body that names
 * no place for them gets them after a blank line (as Claude Code and Gemini CLI do), so none is lost.
 */
export function expandPrompt(
  prompt: {
    name: string;
    body: string;
    origin: PromptOrigin;
    inputs: readonly PromptInput[];
    needs: { selection: boolean; file: boolean };
  },
  values: ExpansionValues,
): Expansion {
  // Own keys only: an input named `constructor` is a question, not Object's property.
  const missing = prompt.inputs.filter((i) => !Object.hasOwn(values.inputs, i.name)).map((i) => i.name);
  if (missing.length > 0) return { ok: false, problem: `/${prompt.name} asks for ${missing.join(", ")}: no answer was given` };
  const unasked = Object.keys(values.inputs).filter((k) => !prompt.inputs.some((i) => i.name === k));
  if (unasked.length > 0) {
    const asks = prompt.inputs.length > 0 ? `it asks ${prompt.inputs.map((i) => i.name).join(", ")}` : "it asks none";
    return { ok: false, problem: `/${prompt.name} asks no question named ${unasked.join(", ")} (${asks})` };
  }
  if (prompt.needs.selection && !values.selection)
    return { ok: false, problem: `/${prompt.name} uses the selection: select text in an editor of the folder, then run it again` };
  if (prompt.needs.file && !values.file)
    return { ok: false, problem: `/${prompt.name} uses the current file: open a file of the folder in an editor, then run it again` };
  const words = values.args === "" ? [] : values.args.split(/\s+/);
  let argsPlaced = false;
  const text = prompt.body.replace(tokens(prompt.origin), (...m: unknown[]) => {
    const whole = m[0] as string;
    const { inner, digit } = m.at(-1) as { inner?: string; digit?: string };
    if (digit !== undefined) {
      argsPlaced = true;
      return words[Number(digit) - 1] ?? "";
    }
    if (inner === undefined) {
      argsPlaced = true;
      return values.args;
    }
    const input = INPUT.exec(inner);
    if (input) return values.inputs[input[1]!]!;
    return (EDITOR_VARS as readonly string[]).includes(inner) ? editorValue(inner as EditorVar, values) : whole;
  });
  return { ok: true, text: argsPlaced || values.args === "" ? text : `${text}\n\n${values.args}` };
}

function editorValue(name: EditorVar, v: ExpansionValues): string {
  const file = v.file ?? "";
  const base = file.slice(file.lastIndexOf("/") + 1);
  switch (name) {
    case "selection":
    case "selectedText":
      return v.selection ?? "";
    case "file":
      return file;
    case "fileBasename":
      return base;
    case "fileBasenameNoExtension":
      return base.includes(".") ? base.slice(0, base.lastIndexOf(".")) : base;
    case "fileDirname":
      return file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
    case "workspaceFolder":
      return v.workspaceFolder;
    case "workspaceFolderBasename":
      return (
        v.workspaceFolder
          .replace(/[\\/]+$/, "")
          .split(/[\\/]/)
          .pop() ?? ""
      );
  }
}

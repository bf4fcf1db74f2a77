// Slash commands in the message box (issue 27, item 3): `/name args` typed as a message runs a chat
// command instead of being sent; the workspace's prompt files are listed under the built-in
// commands and `/name args` runs one (the extension asks its questions and the kernel expands it);
// so does a running MCP server's prompt, `/server:prompt args` (issue 28, item 5).
// Apart from the components, so it tests without a DOM.
import type { PromptView } from "../shared/protocol/prompts.js";

export interface SlashCommand {
  readonly name: string;
  /** What the list shows beside the name. */
  readonly hint: string;
  /** Shown after the name in the list: what to type after it ("" for nothing). */
  readonly args: string;
  /** A prompt file's: the file it runs. */
  readonly source?: string;
  /** Why a prompt file cannot run (malformed, its name taken by a built-in): shown, and refused if typed. */
  readonly problem?: string;
  /** A prompt file's own mode (null: the picker's). */
  readonly mode?: string | null;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "new", hint: "Start a new chat", args: "" },
  { name: "compact", hint: "Condense this chat's older turns into a summary now", args: "" },
  { name: "undo", hint: "Undo the last turn's file edits (asks first)", args: "" },
  { name: "task", hint: "Run a message as a background task", args: "MESSAGE" },
  { name: "mode", hint: "Switch the mode of the next messages", args: "NAME" },
];

/**
 * The prompt files as the list shows them, after the built-ins. A built-in keeps its name: a file
 * named like one is listed with that problem and never run in its place.
 */
export function promptCommands(prompts: readonly PromptView[]): SlashCommand[] {
  return prompts.map((p) => {
    const clash = SLASH_COMMANDS.some((c) => c.name === p.name)
      ? `/${p.name} is a built-in command, which runs instead; rename ${p.source} to use it`
      : undefined;
    const problem = clash ?? p.problem;
    return {
      name: p.name,
      hint: problem ?? (p.description || (p.origin === "mcp" ? p.source : `Prompt file ${p.source}`)),
      args: p.argumentHint,
      source: p.source,
      mode: p.mode,
      ...(problem ? { problem } : {}),
    };
  });
}

/** The text typed so far names a command (a `/` at the very start, no space yet): its prefix, else null. */
export function slashQuery(value: string): string | null {
  const m = /^\/([a-z0-9._:-]*)$/i.exec(value);
  return m ? m[1]!.toLowerCase() : null;
}

/** The commands whose names start with `prefix`, in the order listed. */
export function slashMatches(prefix: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand[] {
  return commands.filter((c) => c.name.startsWith(prefix));
}

export type ParsedSlash = { name: string; args: string };

/**
 * A message that is a slash command: `/name` then, after white space, its arguments; null for any
 * other text. A name may hold `:`, as an MCP prompt's `/server:prompt` does.
 */
export function parseSlash(text: string): ParsedSlash | null {
  const m = /^\/([a-z0-9][a-z0-9._:-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase(), args: (m[2] ?? "").trim() } : null;
}

export type SlashRun =
  | { kind: "new" }
  | { kind: "compact" }
  | { kind: "undo" }
  | { kind: "task"; text: string }
  | { kind: "mode"; name: string }
  /** A prompt file: the extension asks its questions, the kernel expands it, the result is sent. */
  | { kind: "prompt"; name: string; args: string; mode: string | null }
  | { kind: "refused"; message: string }
  /** Not a command: the message is sent as typed (a path such as /etc/hosts stays a message). */
  | { kind: "message" };

/**
 * What a message does: a command's action, a prompt file to run, a refusal that says what to type
 * instead, or sending it. `prompts`: the prompt files listed (promptCommands).
 */
export function slashRun(text: string, prompts: readonly SlashCommand[] = []): SlashRun {
  const parsed = parseSlash(text);
  if (!parsed) return { kind: "message" };
  if (!SLASH_COMMANDS.some((c) => c.name === parsed.name)) {
    const prompt = prompts.find((p) => p.name === parsed.name && !p.problem) ?? prompts.find((p) => p.name === parsed.name);
    if (!prompt) return { kind: "message" };
    if (prompt.problem) return { kind: "refused", message: `/${prompt.name} was not sent: ${prompt.problem}` };
    return { kind: "prompt", name: prompt.name, args: parsed.args, mode: prompt.mode ?? null };
  }
  const { name, args } = parsed;
  if (name === "task")
    return args ? { kind: "task", text: args } : { kind: "refused", message: "/task needs the message to run: /task fix the failing test" };
  if (name === "mode") return args ? { kind: "mode", name: args } : { kind: "refused", message: "/mode needs a mode's name: /mode plan" };
  if (args) return { kind: "refused", message: `/${name} takes nothing after it; remove “${args}”` };
  return { kind: name as "new" | "compact" | "undo" };
}

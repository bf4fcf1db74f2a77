// Modes (issue 27, item 2): Ask, Plan and Code, and the workspace's own from .hearth/modes/*.md. A
// mode names the tools it offers and adds its instructions to the system prompt; it only ever
// NARROWS the session's tool ceiling (harness #5: the active subset shrinks inside it), so a mode
// switch changes no authority (harness #19) and cannot offer a tool the session was not built with.
import { parseDocument } from "yaml";

/**
 * What a mode offers: a group or a tool's exact name. Groups follow Roo Code's, so an imported
 * .roomodes keeps its meaning: `read` (tools that change nothing: read_file, list_dir, search_files),
 * `edit` (write_file, edit_file), `command` (shell), `browser` (web_fetch), `mcp` (the MCP servers'
 * tools), `tasks` (delegate_task), `*` (everything the session has).
 */
export const TOOL_GROUPS = ["read", "edit", "command", "browser", "mcp", "tasks", "*"] as const;

export interface ModeDefinition {
  /** Lowercase slug the composer and `hearth exec --mode` name it by. */
  readonly name: string;
  readonly description: string;
  /** Groups and tool names; a tool is offered when any entry covers it. */
  readonly tools: readonly string[];
  /** Added to the system prompt after the project instructions; "" for none. */
  readonly instructions: string;
  /** "built-in", or the workspace-relative file it was read from. */
  readonly source: string;
}

export const DEFAULT_MODE = "code";

const PLAN_INSTRUCTIONS =
  "# Mode: Plan\n" +
  "You are planning, not changing: read what you need, change nothing, run nothing. Answer with a plan as a " +
  "Markdown checklist, one `- [ ] step` per line, each step concrete (the files, functions and tests it touches), " +
  "in the order to do them. The person edits the checklist and then chooses Implement, which continues in Code mode.";

const ASK_INSTRUCTIONS =
  "# Mode: Ask\n" +
  "Answer the person's question. You may read the workspace but cannot change anything or run commands; " +
  "when a change is needed, describe it and say that Code mode can make it.";

export const BUILTIN_MODES: readonly ModeDefinition[] = [
  {
    name: "code",
    description: "Reads, edits and runs commands (each change asks unless a rule allows it)",
    tools: ["*"],
    instructions: "",
    source: "built-in",
  },
  {
    name: "ask",
    description: "Answers questions; reads the workspace, changes nothing",
    tools: ["read"],
    instructions: ASK_INSTRUCTIONS,
    source: "built-in",
  },
  {
    name: "plan",
    description: "Reads, then answers with a checklist plan to edit and implement",
    tools: ["read"],
    instructions: PLAN_INSTRUCTIONS,
    source: "built-in",
  },
];

const NAME = /^[a-z][a-z0-9-]{0,39}$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

export type ParsedMode = { ok: true; mode: ModeDefinition } | { ok: false; problem: string };

/**
 * A .hearth/modes/NAME.md file: YAML front matter (`name`, `description`, `tools`: a list of groups
 * and tool names), then its instructions. `name` defaults to the file's name. Every problem is named.
 */
export function parseModeFile(path: string, text: string): ParsedMode {
  const refuse = (why: string): ParsedMode => ({
    ok: false,
    problem: `${path}: ${why}; see docs/modes.md for the format (front matter with name, description, tools, then the instructions)`,
  });
  const parts = FRONT_MATTER.exec(text);
  if (!parts) return refuse("it does not begin with a front matter block between two `---` lines");
  const doc = parseDocument(parts[1]!);
  if (doc.errors.length > 0) return refuse(`its front matter is not YAML (${doc.errors[0]!.message.split("\n")[0]})`);
  const fields = doc.toJS() as unknown;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields))
    return refuse("its front matter is not a set of `key: value` lines");
  const { name = fileSlug(path), description = "", tools, ...rest } = fields as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    return refuse(`unknown front matter ${unknown.map((k) => JSON.stringify(k)).join(", ")} (name, description and tools are read)`);
  if (typeof name !== "string" || !NAME.test(name))
    return refuse(`name ${JSON.stringify(name)} must be lowercase letters, digits and dashes, at most 40`);
  if (typeof description !== "string") return refuse("description must be text");
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every((t) => typeof t === "string" && t !== ""))
    return refuse("tools must be a list of tool groups or tool names, e.g. `tools: [read, edit]`");
  const body = parts[2]!.trim();
  return { ok: true, mode: { name, description, tools, instructions: body === "" ? "" : `# Mode: ${name}\n${body}`, source: path } };
}

function fileSlug(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

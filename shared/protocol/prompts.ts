// Prompt files (issue 27, item 3): the workspace's saved prompts, run from the chat as `/name args`
// and by `hearth exec --prompt NAME`. The kernel reads and expands them (the webview stays a list);
// the client only gathers what the kernel cannot know: the text after the command, the answers to
// the file's `${input:…}` questions, and the active editor's file and selection.
import { z } from "zod";

/** The convention a prompt file follows: Hearth's own, VS Code Copilot's, or Claude Code's commands. */
/** "mcp": a running MCP server's prompt (issue 28, item 5), named `/server:prompt`. */
export const PromptOrigin = z.enum(["hearth", "copilot", "claude", "mcp"]);
export type PromptOrigin = z.infer<typeof PromptOrigin>;

export const PromptInput = z.object({
  name: z.string(),
  /** What the question box shows (`${input:name:placeholder}`); "" for none. */
  placeholder: z.string(),
  /** An MCP prompt's optional argument: an empty answer omits it. */
  optional: z.boolean().optional(),
});
export type PromptInput = z.infer<typeof PromptInput>;

export const PromptView = z.object({
  /** What follows the `/`: the file's name without its suffix, lowercased. */
  name: z.string(),
  description: z.string(),
  /** What to type after the name (front matter `argument-hint`); "" for nothing said. */
  argumentHint: z.string(),
  /** Workspace-relative path of the file; for an MCP prompt, its server and prompt in words. */
  source: z.string(),
  origin: PromptOrigin,
  /** The mode its message is sent in (front matter `mode` or `agent`); null: the composer's. */
  mode: z.string().nullable(),
  /** The questions asked before it is sent, one per distinct `${input:name}`, in order of appearance. */
  inputs: z.array(PromptInput),
  /** Whether it needs the active editor's selection or file (`${selection}`, `${file}` …). */
  needs: z.object({ selection: z.boolean(), file: z.boolean() }),
  /** Front matter read but not applied by Hearth (`tools`, `model`, …): the list says so. */
  ignored: z.array(z.string()),
  /** Why it cannot be run (malformed front matter, a mode there is none of, a name taken); it is never sent. */
  problem: z.string().optional(),
});
export type PromptView = z.infer<typeof PromptView>;

export const PromptList = z.object({
  prompts: z.array(PromptView),
  /** What was not looked at, in words (a folder bound reached, Restricted Mode). */
  notes: z.array(z.string()),
});
export type PromptList = z.infer<typeof PromptList>;

/** The most of a selection `${selection}` takes (characters): a prompt is a message, not a file transfer. */
export const PROMPT_SELECTION_MAX_CHARS = 256 * 1024;

/** What the client knows of the active editor: a workspace-relative file, its selected text. */
export const PromptEditor = z.object({
  file: z.string().min(1).max(4096).optional(),
  selection: z.string().max(PROMPT_SELECTION_MAX_CHARS).optional(),
});
export type PromptEditor = z.infer<typeof PromptEditor>;

export const PromptExpansion = z.object({
  /** The message to send: the file's body with every variable filled in. */
  text: z.string(),
  /** The mode to send it in; null: the one the client would use anyway. */
  mode: z.string().nullable(),
  source: z.string(),
});
export type PromptExpansion = z.infer<typeof PromptExpansion>;

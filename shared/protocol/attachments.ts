// Context attached to a message (issue 15): the current file, the selection, or a file picked with @;
// or a running MCP server's resource picked with @ (issue 28, item 5). The client names a place; the
// kernel reads it (its anchored read_file, or the server's resources/read) and journals it.
// Issue 29 item 3, context from the editor: the Problems list, the active terminal's last command and
// the working tree's changes exist only in the editor, so the extension collects them (bounded) and
// sends their text as `content`, which the kernel journals exactly as sent; a folder's listing is read
// by the kernel (its anchored list_dir), like a file. A web page (`url`, issue 29 item 3) is fetched
// by the turn itself: its first call is web_fetch of the URL, with that tool's approval and ledger.
import { z } from "zod";
import { formatBytes } from "../byteFormat.js";

export const MAX_ATTACHMENTS = 10;

/** The kinds whose text the extension collects and sends as `content`. */
export const EDITOR_KINDS = ["problems", "terminal", "changes"] as const;
export type EditorKind = (typeof EDITOR_KINDS)[number];

/** The most characters of one editor attachment's text (the extension bounds what it collects below this). */
export const MAX_CONTENT_CHARS = 32_000;

export const Attachment = z.object({
  kind: z.enum(["file", "selection", "resource", "folder", "url", ...EDITOR_KINDS]),
  /**
   * Relative to the workspace folder, components joined by `/` (a file, a selection, a folder, the
   * file whose problems these are); a resource's URI; `workspace` for the whole folder's problems; a
   * terminal's name; the repository's folder of the changes (`.` for the workspace folder itself); a
   * web page's http(s) URL.
   */
  path: z.string().min(1).max(4096),
  /** A resource's MCP server. */
  server: z.string().min(1).max(40).optional(),
  /** A selection's lines, 1-based and inclusive; a file has none. */
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
  /** An editor attachment's text, as the extension collected it (problems, terminal, changes only). */
  content: z.string().max(MAX_CONTENT_CHARS).optional(),
});
export type Attachment = z.infer<typeof Attachment>;

export function isEditorKind(kind: Attachment["kind"]): kind is EditorKind {
  return (EDITOR_KINDS as readonly string[]).includes(kind);
}

/** The path a problems chip names for the whole folder's diagnostics. */
export const WORKSPACE_PROBLEMS = "workspace";

/**
 * A chip's label: `src/a.ts`, `src/a.ts:3-7` for a selection, `server: uri` for a resource; the
 * editor's context and a folder say their kind first: `problems: workspace`, `terminal: bash`,
 * `changes: .`, `folder: src`.
 */
export function attachmentLabel(a: Attachment): string {
  if (a.kind === "resource") return `${a.server ?? "?"}: ${a.path}`;
  if (a.kind === "folder" || a.kind === "url" || isEditorKind(a.kind)) return `${a.kind}: ${a.path}`;
  return a.startLine !== undefined ? `${a.path}:${a.startLine}-${a.endLine ?? a.startLine}` : a.path;
}

/** The size a chip shows where the client knows it (the text it collected), e.g. `1.2 KB`; otherwise none. */
export function attachmentSize(a: Attachment): string | undefined {
  return a.content === undefined ? undefined : formatBytes(new TextEncoder().encode(a.content).length);
}

// Context attached to a message (issue 15): the current file, the selection, or a file picked with @;
// or a running MCP server's resource picked with @ (issue 28, item 5). The client names a place; the
// kernel reads it (its anchored read_file, or the server's resources/read) and journals it.
import { z } from "zod";

export const MAX_ATTACHMENTS = 10;

export const Attachment = z.object({
  kind: z.enum(["file", "selection", "resource"]),
  /** Relative to the workspace folder, components joined by `/`; a resource's URI. */
  path: z.string().min(1).max(4096),
  /** A resource's MCP server. */
  server: z.string().min(1).max(40).optional(),
  /** A selection's lines, 1-based and inclusive; a file has none. */
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/** A chip's label: `src/a.ts`, `src/a.ts:3-7` for a selection, `server: uri` for a resource. */
export function attachmentLabel(a: Attachment): string {
  if (a.kind === "resource") return `${a.server ?? "?"}: ${a.path}`;
  return a.startLine !== undefined ? `${a.path}:${a.startLine}-${a.endLine ?? a.startLine}` : a.path;
}

// Context attached to a message (issue 15): the current file, the selection, or a file picked with @.
// The client names a place; the kernel reads it through its anchored read_file and journals it.
import { z } from "zod";

export const MAX_ATTACHMENTS = 10;

export const Attachment = z.object({
  kind: z.enum(["file", "selection"]),
  /** Relative to the workspace folder, components joined by `/`. */
  path: z.string().min(1).max(4096),
  /** A selection's lines, 1-based and inclusive; a file has none. */
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/** A chip's label: `src/a.ts`, or `src/a.ts:3-7` for a selection. */
export function attachmentLabel(a: Attachment): string {
  return a.startLine !== undefined ? `${a.path}:${a.startLine}-${a.endLine ?? a.startLine}` : a.path;
}

// Modes (issue 27, item 2): what `modes/list` answers, for the composer's picker and `hearth modes`.
import { z } from "zod";

export const ModeView = z.object({
  name: z.string(),
  description: z.string(),
  /** The groups and tool names it offers (read, edit, command, browser, mcp, tasks, *). */
  tools: z.array(z.string()),
  /** "built-in" or the workspace file it is read from. */
  source: z.string(),
});
export type ModeView = z.infer<typeof ModeView>;

export const ModeList = z.object({
  modes: z.array(ModeView),
  /** Files under .hearth/modes that were not read, each with its reason. */
  problems: z.array(z.string()),
});
export type ModeList = z.infer<typeof ModeList>;

/** What `modes/import` did with the workspace's .roomodes. */
export const ModeImport = z.object({
  /** The files written, workspace-relative. */
  written: z.array(z.string()),
  /** Modes not written (a file by that name exists), and what was left out of the ones written. */
  notes: z.array(z.string()),
});
export type ModeImport = z.infer<typeof ModeImport>;

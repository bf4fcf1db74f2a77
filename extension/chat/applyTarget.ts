// Which file "Apply to file" proposes to write (issue 15), decided without touching the disk: the
// file the code fence names, else the active editor's, else the person is asked. Whatever is chosen
// must lie inside the workspace folder; the kernel's anchored write_file checks it again.
import path from "node:path";

export type ApplyTarget = { kind: "file"; path: string } | { kind: "ask" } | { kind: "refused"; message: string };

export interface ApplyContext {
  /** The workspace folder (absolute); undefined when none is open. */
  folder: string | undefined;
  /** True in Restricted Mode: Hearth may not write in this folder. */
  restricted: boolean;
  /** The file the code fence names (relative to the folder, or absolute). */
  named: string | undefined;
  /** The active editor's file on disk (absolute), if it has one. */
  activeFile: string | undefined;
}

export const NO_FOLDER_TO_APPLY =
  "Apply to file was refused: no folder is open, and Hearth writes only inside a workspace folder. Open one (File › Open Folder…), then press Apply again.";

export const RESTRICTED_APPLY =
  "Apply to file was refused: this folder is in Restricted Mode (not trusted), where Hearth may not " +
  "write files. Trust the folder (Manage Workspace Trust), then press Apply again.";

export function applyTarget(ctx: ApplyContext): ApplyTarget {
  if (!ctx.folder) return { kind: "refused", message: NO_FOLDER_TO_APPLY };
  if (ctx.restricted) return { kind: "refused", message: RESTRICTED_APPLY };
  if (ctx.named) return inFolder(ctx.folder, ctx.named, "the file the code block names");
  if (ctx.activeFile) return inFolder(ctx.folder, ctx.activeFile, "the active editor's file");
  return { kind: "ask" };
}

const APPLY_REMEDY =
  "Open a file of the folder in the editor (or name one in the code fence, as ```ts src/file.ts), then press Apply again.";

/** `file` as a path relative to `folder`, or why Hearth may not use it (`action` names the refused act). */
export function inFolder(folder: string, file: string, what: string, action = "Apply to file", remedy = APPLY_REMEDY): ApplyTarget {
  const absolute = path.resolve(folder, file);
  const relative = path.relative(folder, absolute);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative))
    return {
      kind: "refused",
      message: `${action} was refused: ${what}, ${file}, is outside the workspace folder ${folder}, and Hearth works only inside it. ${remedy}`,
    };
  return { kind: "file", path: relative.split(path.sep).join("/") };
}

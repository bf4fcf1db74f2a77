// The text files of one workspace folder, by name suffix (issue 27: .hearth/modes/*.md, and the
// prompt files of .hearth/prompts/ and .github/prompts/), read through the workspace descriptor
// like every other kernel read (harness #9: no link followed) and bounded in count and size.
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { walkTree } from "./treeWalk.js";
import { readWorkspaceTextHead } from "./workspaceText.js";

export interface FolderText {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  /** The text (at most `maxBytes`); null when it could not be read (`problem` says why). */
  readonly text: string | null;
  readonly cut: boolean;
  readonly problem?: string;
}

export interface FolderTextLimits {
  readonly files: number;
  readonly maxBytes: number;
}

export const FOLDER_TEXT_LIMITS: FolderTextLimits = { files: 64, maxBytes: 32 << 10 };

/** The folder's own files (not its sub-folders') whose names end in `suffix`, in name order; [] when there is no such folder. */
export async function readFolderTexts(
  ws: AnchoredWorkspace,
  folder: string,
  suffix: string,
  limits: FolderTextLimits = FOLDER_TEXT_LIMITS,
): Promise<{ files: FolderText[]; note?: string }> {
  const opened = ws.openDir(ws.root, folder.split("/"));
  if (!opened.ok) return { files: [] }; // absent, a file, or a link (never followed)
  const names: string[] = [];
  let more = false;
  try {
    await walkTree(ws, opened.dir, { maxDepth: 1, maxEntries: 1000, maxDirs: 1 }, (e) => {
      if (e.kind !== "file" || e.notUtf8 || e.name.startsWith(".") || !e.name.endsWith(suffix)) return "continue";
      if (names.length === limits.files) {
        more = true;
        return "stop";
      }
      names.push(e.name);
      return "continue";
    });
  } finally {
    ws.release(opened.dir);
  }
  const files = names.sort().map((name): FolderText => {
    const path = `${folder}/${name}`;
    const head = readWorkspaceTextHead(ws, path, limits.maxBytes);
    return head.ok ? { path, text: head.text, cut: head.cut } : { path, text: null, cut: false, problem: head.message };
  });
  return more ? { files, note: `${folder}/: only the first ${limits.files} files were read` } : { files };
}

// The one entry point the kernel calls: opens the workspace descriptor and builds the tool set.
// File tools, shell and web_fetch register independently, so policy can remove shell alone
// (harness #12); web_fetch is opt-in (harness #11). Ceilings are clamped to the module's hard maxima.
import type { Tool } from "../agent/ports/tools.js";
import { AnchoredWorkspace, type ResolverKind, type WorkspaceIdentity } from "./anchoredFs.js";
import { resolveCeilings, type Ceilings } from "./ceilings.js";
import { FileRestorer } from "./fileRestore.js";
import { readFolderTexts } from "./folderTexts.js";
import { scanInstructionFiles, type InstructionScan } from "./instructionFiles.js";
import type { FileWriteSink } from "./fileWrites.js";
import { listDirTool } from "./listDirTool.js";
import { editFileTool, writeFileTool } from "./mutationTools.js";
import { readFileTool } from "./readFileTool.js";
import { searchFilesTool } from "./searchFilesTool.js";
import { captureShellEnvironment } from "./shellEnvironment.js";
import { shellTool } from "./shellTool.js";
import { webFetchTool } from "./webTools.js";
import { editWorkspaceText, readWorkspaceText, type WorkspaceEdit, type WorkspaceText } from "./workspaceText.js";

export interface WorkspaceToolsConfig {
  readonly workspaceRoot: string;
  /** read_file, list_dir, search_files, write_file, edit_file (default true). */
  readonly files?: boolean;
  readonly shell: boolean;
  /** web_fetch, offered only when the person opted in (harness #11). */
  readonly network?: { readonly fetch?: boolean };
  readonly ceilings?: Partial<Ceilings>;
  /** Forces a weaker resolver (tests, diagnostics); the default is the strongest available. */
  readonly resolver?: ResolverKind;
  /** Source of PATH/HOME for the shell (default process.env), captured once here. */
  readonly shellEnvSource?: NodeJS.ProcessEnv;
  readonly shellGraceMs?: number;
  /** Hears each successful write_file/edit_file install with the file's pre-image (undo, issue 14). */
  readonly writes?: FileWriteSink;
}

export interface WorkspaceTools {
  readonly tools: readonly Tool[];
  /** For the authority snapshot: canonical path, st_dev, st_ino of the held folder. */
  readonly workspace: WorkspaceIdentity;
  readonly resolver: ResolverKind;
  readonly ceilings: Ceilings;
  /** Puts files back or removes them through the same workspace descriptor (undo of a turn's edits). */
  readonly restorer: FileRestorer;
  /** A small text file the kernel consults (.hearth/rules.json), read through the workspace descriptor. */
  readText(relPath: string, maxBytes: number): WorkspaceText;
  /** Rewrites a small text file the kernel keeps (.hearth/rules.json, from an approval card), atomically. */
  editText: WorkspaceEdit;
  /** The project's instruction files (AGENTS.md, .clinerules, ...), read through the workspace descriptor. */
  instructionFiles(mode?: string): Promise<InstructionScan>;
  /** The files of one folder whose names end in `suffix` (.hearth/modes/*.md), read through the workspace descriptor. */
  folderTexts(folder: string, suffix: string): ReturnType<typeof readFolderTexts>;
  /** Releases the workspace descriptor. The tools must not be used afterwards. */
  close(): void;
}

/** Opens the workspace descriptor and builds the configured tools; ceilings are clamped to their hard maxima. */
export function buildWorkspaceTools(config: WorkspaceToolsConfig): WorkspaceTools {
  const ceilings = resolveCeilings(config.ceilings);
  const ws = AnchoredWorkspace.open(config.workspaceRoot, { resolver: config.resolver });
  try {
    const tools: Tool[] = [];
    if (config.files ?? true) {
      tools.push(
        readFileTool(ws, ceilings),
        listDirTool(ws, ceilings),
        searchFilesTool(ws, ceilings),
        writeFileTool(ws, ceilings, config.writes),
        editFileTool(ws, ceilings, config.writes),
      );
    }
    if (config.shell) tools.push(shellTool(ws, ceilings, captureShellEnvironment(config.shellEnvSource), { graceMs: config.shellGraceMs }));
    if (config.network?.fetch) tools.push(webFetchTool(ceilings));
    return Object.freeze({
      tools: Object.freeze(tools),
      workspace: ws.identity,
      resolver: ws.resolver,
      ceilings,
      restorer: new FileRestorer(ws, ceilings.writeMaxBytes),
      readText: (relPath: string, maxBytes: number) => readWorkspaceText(ws, relPath, maxBytes),
      editText: ((relPath, maxBytes, update) => editWorkspaceText(ws, relPath, maxBytes, update)) satisfies WorkspaceEdit,
      instructionFiles: (mode?: string) => scanInstructionFiles(ws, mode),
      folderTexts: (folder: string, suffix: string) => readFolderTexts(ws, folder, suffix),
      close: () => ws.close(),
    });
  } catch (e) {
    ws.close();
    throw e;
  }
}

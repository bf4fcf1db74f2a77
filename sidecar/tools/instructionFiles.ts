// Finds the project's instruction files (issue 27, item 1): the files people already keep for
// Codex, Claude Code, Cline, Roo, Continue, Copilot and Cursor, read through the workspace
// descriptor like every other kernel read (harness #9: no link followed, bounded). Each file is
// read up to a per-file bound and says when it was cut; the walk for nested AGENTS.md files is
// bounded too and says where it stopped.
import type { InstructionOrigin as Origin } from "../../shared/protocol/instructions.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { walkTree, type WalkEnd } from "./treeWalk.js";
import { readWorkspaceTextHead } from "./workspaceText.js";

/** Where an instruction file comes from: the tool whose convention it follows. */
export type InstructionOrigin = Exclude<Origin, "person">;

export interface FoundInstruction {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  readonly origin: InstructionOrigin;
  /** The folder the file applies to: "" for the whole workspace, else a nested AGENTS.md's folder. */
  readonly scope: string;
  /** The text as read (at most the per-file bound); null when it could not be read (`problem` says why). */
  readonly text: string | null;
  /** The file's whole size in bytes. */
  readonly bytes: number;
  /** The per-file bound cut it. */
  readonly cut: boolean;
  readonly problem?: string;
}

export interface InstructionScan {
  readonly files: readonly FoundInstruction[];
  /** What was not looked at, in words (a walk bound reached). */
  readonly notes: readonly string[];
}

export interface InstructionLimits {
  /** Bytes read of one file (Codex reads 32 KiB of AGENTS.md in all). */
  readonly perFileBytes: number;
  /** Files read from one rules folder (.clinerules/, .roo/rules/, .continue/rules/). */
  readonly folderFiles: number;
  /** Folders the nested-AGENTS.md walk opens, and how deep it goes. */
  readonly walkDirs: number;
  readonly walkDepth: number;
}

export const INSTRUCTION_LIMITS: InstructionLimits = { perFileBytes: 16 << 10, folderFiles: 32, walkDirs: 2000, walkDepth: 8 };

/** A single file at a fixed path, or a folder whose files are each one source (Cline and Roo toggle them one by one). */
interface Source {
  readonly path: string;
  readonly origin: InstructionOrigin;
  readonly shape: "file" | "folder" | "fileOrFolder";
}

/** The conventions read, in the order their text is shown; `mode` picks Roo's per-mode folder. */
function sources(mode: string): Source[] {
  return [
    { path: "AGENTS.md", origin: "agents", shape: "file" },
    { path: "CLAUDE.md", origin: "claude", shape: "file" },
    { path: ".clinerules", origin: "cline", shape: "fileOrFolder" },
    { path: ".roorules", origin: "roo", shape: "file" },
    { path: ".roo/rules", origin: "roo", shape: "folder" },
    { path: `.roo/rules-${mode}`, origin: "roo", shape: "folder" },
    { path: ".continue/rules", origin: "continue", shape: "folder" },
    { path: ".github/copilot-instructions.md", origin: "copilot", shape: "file" },
    { path: ".cursorrules", origin: "cursor", shape: "file" },
  ];
}

/**
 * Every instruction file of the workspace in the order it is shown: the fixed conventions, then the
 * AGENTS.md files of sub-folders, shallower first (a nearer file is read after, so it has the last word).
 */
export async function scanInstructionFiles(
  ws: AnchoredWorkspace,
  mode = "code",
  limits: InstructionLimits = INSTRUCTION_LIMITS,
): Promise<InstructionScan> {
  const files: FoundInstruction[] = [];
  const notes: string[] = [];
  for (const source of sources(mode)) {
    const folder = source.shape === "file" ? null : await readFolder(ws, source, limits, notes);
    if (folder) files.push(...folder);
    else if (source.shape !== "folder") {
      const file = readOne(ws, source.path, source.origin, "", limits);
      if (file.text !== null || file.problem !== undefined) files.push(file);
    }
  }
  files.push(...(await nestedAgents(ws, limits, notes)));
  return { files, notes };
}

function readOne(
  ws: AnchoredWorkspace,
  path: string,
  origin: InstructionOrigin,
  scope: string,
  limits: InstructionLimits,
): FoundInstruction {
  const head = readWorkspaceTextHead(ws, path, limits.perFileBytes);
  if (!head.ok) return { path, origin, scope, text: null, bytes: 0, cut: false, problem: head.message };
  return { path, origin, scope, text: head.text, bytes: head.bytes, cut: head.cut };
}

/** The files of a rules folder (and its sub-folders), in path order, up to the folder bound; null when it is no folder. */
async function readFolder(
  ws: AnchoredWorkspace,
  source: Source,
  limits: InstructionLimits,
  notes: string[],
): Promise<FoundInstruction[] | null> {
  const opened = ws.openDir(ws.root, source.path.split("/"));
  if (!opened.ok) return null; // absent, a file, or a link (never followed)
  const paths: string[] = [];
  try {
    const end = await walkTree(ws, opened.dir, { maxDepth: 3, maxEntries: 1000, maxDirs: 50 }, (e) => {
      if (e.kind !== "file" || e.notUtf8 || e.name.startsWith(".")) return "continue";
      if (paths.length === limits.folderFiles) return "stop";
      paths.push(`${source.path}/${e.rel}`);
      return "continue";
    });
    if (end.by !== "done") notes.push(`${source.path}/: only the first ${paths.length} files were read (${stopWhy(end)})`);
  } finally {
    ws.release(opened.dir);
  }
  return paths.sort().map((p) => readOne(ws, p, source.origin, "", limits));
}

/** AGENTS.md files below the root: each applies to the files of its folder. */
async function nestedAgents(ws: AnchoredWorkspace, limits: InstructionLimits, notes: string[]): Promise<FoundInstruction[]> {
  const found: string[] = [];
  const end = await walkTree(ws, ws.root, { maxDepth: limits.walkDepth, maxEntries: 100_000, maxDirs: limits.walkDirs }, (e) => {
    if (e.depth > 1 && e.kind === "file" && e.name === "AGENTS.md" && !e.notUtf8) found.push(e.rel);
    return "continue";
  });
  if (end.by !== "done")
    notes.push(`AGENTS.md files in sub-folders: the search stopped early (${stopWhy(end)}); files past it are not read`);
  const depth = (p: string) => p.split("/").length;
  found.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  return found.map((p) => readOne(ws, p, "agents", p.slice(0, -"/AGENTS.md".length), limits));
}

function stopWhy(end: WalkEnd): string {
  if (end.by === "folders") return `the folder bound was reached before ${end.before}`;
  if (end.by === "entries") return "the entry bound was reached";
  return "the file bound was reached";
}

// A bounded depth-first walk beneath a directory descriptor. Each subdirectory is opened through
// its parent's descriptor with no symlink following, so a link is listed but never entered.
import fs from "node:fs";
import type { AnchoredWorkspace, DirHandle } from "./anchoredFs.js";

export interface WalkEntry {
  /** Path relative to the walk's start, `/`-separated; null components for non-UTF-8 names. */
  readonly rel: string;
  readonly name: string;
  /** Raw name bytes were not UTF-8: shown escaped, and no tool can address the entry. */
  readonly notUtf8: boolean;
  readonly kind: "file" | "dir" | "symlink" | "other";
  readonly depth: number;
  readonly parent: DirHandle;
}

/** Directories a walk lists but does not descend into. */
export const NOT_EXPANDED = new Set([".git", "node_modules"]);

export type Visit = (e: WalkEntry) => "continue" | "stop";

export interface WalkLimits {
  /** Levels walked (1 = the entries of `start` only). */
  readonly maxDepth: number;
  /** Subfolders the walk may open (harness #9: empty folders cost an open each). */
  readonly maxDirs?: number;
}

/** How a walk ended: every reachable entry seen, the visitor stopped it, or the folder bound did. */
export type WalkEnd = { readonly by: "done" | "visitor" } | { readonly by: "folders"; readonly before: string };

/** Walks beneath `start` depth first, in name order, within `limits`. */
export function walkTree(ws: AnchoredWorkspace, start: DirHandle, limits: WalkLimits, visit: Visit): WalkEnd {
  const budget = { dirsLeft: limits.maxDirs ?? Infinity };
  return walkLevel(ws, start, limits.maxDepth, budget, visit, "", 1);
}

function walkLevel(
  ws: AnchoredWorkspace,
  start: DirHandle,
  maxDepth: number,
  budget: { dirsLeft: number },
  visit: Visit,
  rel: string,
  depth: number,
): WalkEnd {
  const entries = fs.readdirSync(start.child("."), { withFileTypes: true, encoding: "buffer" });
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const d of entries) {
    const decoded = decodeName(d.name);
    const kind = d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "dir" : d.isFile() ? "file" : "other";
    const entry: WalkEntry = {
      rel: rel ? `${rel}/${decoded.text}` : decoded.text,
      name: decoded.text,
      notUtf8: !decoded.ok,
      kind,
      depth,
      parent: start,
    };
    if (visit(entry) === "stop") return { by: "visitor" };
    if (kind !== "dir" || !decoded.ok || depth >= maxDepth || NOT_EXPANDED.has(decoded.text)) continue;
    if (budget.dirsLeft <= 0) return { by: "folders", before: entry.rel };
    budget.dirsLeft--;
    const sub = ws.openDir(start, [decoded.text]);
    if (!sub.ok) continue; // swapped for a link or removed since readdir: not entered
    try {
      const end = walkLevel(ws, sub.dir, maxDepth, budget, visit, entry.rel, depth + 1);
      if (end.by !== "done") return end;
    } finally {
      ws.release(sub.dir);
    }
  }
  return { by: "done" };
}

function decodeName(raw: Buffer): { ok: boolean; text: string } {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(raw) };
  } catch {
    return { ok: false, text: [...raw].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`)).join("") };
  }
}

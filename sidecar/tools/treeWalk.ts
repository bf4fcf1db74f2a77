// A bounded depth-first walk beneath a directory descriptor. Each subdirectory is opened through
// its parent's descriptor with no symlink following, so a link is listed but never entered; each
// folder is read as a bounded stream (harness #9).
import fs from "node:fs";
import type { AnchoredWorkspace, DirHandle } from "./anchoredFs.js";
import { showPath } from "./workspacePath.js";

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
  /** Entries the walk reads in all, of every kind: files, folders, links and special files alike (harness #9). */
  readonly maxEntries: number;
  /** Subfolders the walk may open (harness #9: empty folders cost an open each). */
  readonly maxDirs?: number;
}

/**
 * How a walk ended: every reachable entry seen, the visitor stopped it, the folder bound did
 * (before entering `before`), or the entry bound did: inside `at`, which has more entries, or
 * before reading `before`. Paths are relative to the walk's start ("" is the start itself).
 */
export type WalkEnd =
  | { readonly by: "done" | "visitor" }
  | { readonly by: "folders"; readonly before: string }
  | { readonly by: "entries"; readonly at: string; readonly more: true }
  | { readonly by: "entries"; readonly before: string };

interface Budget {
  entriesLeft: number;
  dirsLeft: number;
  /** Visits since the walk last gave the event loop a turn. */
  sinceYield: number;
}

/** Visits between two turns of the event loop: a visitor's own work (search opens each file) is synchronous. */
const VISITS_PER_TURN = 32;

/**
 * Walks beneath `start` depth first within `limits`. Each folder is read as a stream and closed as
 * soon as the entry bound is reached, so a folder of any size costs at most the bound in memory and
 * never blocks the event loop for a whole listing; what was read of a folder is visited in name order.
 */
export async function walkTree(ws: AnchoredWorkspace, start: DirHandle, limits: WalkLimits, visit: Visit): Promise<WalkEnd> {
  const budget: Budget = { entriesLeft: limits.maxEntries, dirsLeft: limits.maxDirs ?? Infinity, sinceYield: 0 };
  return walkLevel(ws, start, limits.maxDepth, budget, visit, "", 1);
}

async function walkLevel(
  ws: AnchoredWorkspace,
  start: DirHandle,
  maxDepth: number,
  budget: Budget,
  visit: Visit,
  rel: string,
  depth: number,
): Promise<WalkEnd> {
  if (budget.entriesLeft <= 0) return { by: "entries", before: rel };
  const { entries, more } = await readEntries(start, budget.entriesLeft);
  budget.entriesLeft -= entries.length;
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
    if (++budget.sinceYield >= VISITS_PER_TURN) {
      budget.sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (more || kind !== "dir" || !decoded.ok || depth >= maxDepth || NOT_EXPANDED.has(decoded.text)) continue;
    if (budget.dirsLeft <= 0) return { by: "folders", before: entry.rel };
    budget.dirsLeft--;
    const sub = ws.openDir(start, [decoded.text]);
    if (!sub.ok) continue; // swapped for a link or removed since it was read: not entered
    try {
      const end = await walkLevel(ws, sub.dir, maxDepth, budget, visit, entry.rel, depth + 1);
      if (end.by !== "done") return end;
    } finally {
      ws.release(sub.dir);
    }
  }
  return more ? { by: "entries", at: rel, more } : { by: "done" };
}

/** Up to `max` entries of a folder, read in small batches; `more` when it holds others. */
async function readEntries(dir: DirHandle, max: number): Promise<{ entries: fs.Dirent<Buffer>[]; more: boolean }> {
  // Buffer names keep non-UTF-8 names intact; Node's types list only string encodings here.
  const encoding = "buffer" as unknown as BufferEncoding;
  const stream = await fs.promises.opendir(dir.child("."), { encoding, bufferSize: Math.min(max + 1, 256) });
  const entries: fs.Dirent<Buffer>[] = [];
  try {
    for (;;) {
      const d = (await stream.read()) as unknown as fs.Dirent<Buffer> | null;
      if (d === null) return { entries, more: false };
      if (entries.length === max) return { entries, more: true };
      entries.push(d);
    }
  } finally {
    await stream.close();
  }
}

/** Where the entry bound stopped a walk begun at `startParts`, as a phrase; null when it did not. */
export function entryBoundReached(end: WalkEnd, maxEntries: number, startParts: readonly string[]): string | null {
  if (end.by !== "entries") return null;
  const shown = (rel: string) => showPath([...startParts, ...(rel ? [rel] : [])].join("/") || ".");
  return "more" in end
    ? `stopped at ${maxEntries} entries, inside ${shown(end.at)}, which has more`
    : `stopped at ${maxEntries} entries, before reading ${shown(end.before)}`;
}

function decodeName(raw: Buffer): { ok: boolean; text: string } {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(raw) };
  } catch {
    return { ok: false, text: [...raw].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`)).join("") };
  }
}

// search_files: a literal text search over workspace files, bounded in files, file size and
// matches; symlinks are never entered and hardlinked or special files never opened (harness #9).
// Literal, not regex: a regular expression's running time cannot be bounded in JavaScript.
import fs from "node:fs";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import type { AnchoredWorkspace, DirHandle } from "./anchoredFs.js";
import type { Ceilings } from "./ceilings.js";
import { decodeText, readBounded, resolvePath } from "./fileAccess.js";
import { O } from "./linuxLibc.js";
import { badArgs, defineTool, fail, succeed } from "./toolKit.js";
import { entryBoundReached, NOT_EXPANDED, walkTree } from "./treeWalk.js";
import { showPath } from "./workspacePath.js";

const MAX_DEPTH = 32;
const MAX_LINE_CHARS = 240;

const schema: ObjectSchema = {
  type: "object",
  properties: {
    pattern: { type: "string", description: "Literal text to find (not a regular expression)", minLength: 1, maxLength: 1000 },
    path: {
      type: "string",
      description: "Directory to search, relative to the workspace folder (default `.`)",
      minLength: 1,
      maxLength: 4096,
    },
    caseSensitive: { type: "boolean", description: "Match case exactly (default true)" },
  },
  required: ["pattern"],
  additionalProperties: false,
};

export function searchFilesTool(ws: AnchoredWorkspace, ceilings: Ceilings): Tool {
  const definition = defineTool({
    name: "search_files",
    description:
      `Find lines with the literal pattern in files under path (default "."), up to ${ceilings.searchMaxMatches}; ` +
      `skips ${[...NOT_EXPANDED].join(", ")}.`,
    parameters: schema,
    effectClass: "read",
    retryPolicy: "safe_retry",
    cancellation: "FinishOnceStarted",
    requiresApproval: false,
    config: {
      searchMaxFiles: ceilings.searchMaxFiles,
      searchMaxDirs: ceilings.searchMaxDirs,
      searchMaxMatches: ceilings.searchMaxMatches,
      searchMaxFileBytes: ceilings.searchMaxFileBytes,
      maxDepth: MAX_DEPTH,
    },
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `search for ${JSON.stringify(args.pattern)} in ${showPath(String(args.path ?? "."))}` } };
    },
    async invoke(args) {
      const bad = badArgs("search_files", schema, args);
      if (bad) return bad;
      const p = resolvePath(ws, (args.path as string | undefined) ?? ".");
      if (!p.ok) return fail(p.message);
      const opened = ws.openDir(ws.root, p.path.parts);
      if (!opened.ok) return fail(ws.describe(p.path, opened.errno));
      const fold = args.caseSensitive === false ? (s: string) => s.toLowerCase() : (s: string) => s;
      const needle = fold(args.pattern as string);
      const prefix = p.path.parts.join("/");
      const matches: string[] = [];
      let files = 0;
      let stoppedBy: string | null = null;
      try {
        // searchMaxFiles bounds the entries read, of every kind (harness #9): links and special files cost a read too.
        const limits = { maxDepth: MAX_DEPTH, maxEntries: ceilings.searchMaxFiles, maxDirs: ceilings.searchMaxDirs };
        const end = await walkTree(ws, opened.dir, limits, (e) => {
          if (e.kind !== "file" || e.notUtf8) return "continue";
          files++;
          const text = readCandidate(ws, e.parent, e.name, ceilings.searchMaxFileBytes);
          if (text === null) return "continue";
          const lines = text.split("\n");
          for (let i = 0; i < lines.length; i++) {
            if (!fold(lines[i]!).includes(needle)) continue;
            if (matches.length >= ceilings.searchMaxMatches) {
              stoppedBy = `stopped at ${ceilings.searchMaxMatches} matches`;
              return "stop";
            }
            const line = lines[i]!.length > MAX_LINE_CHARS ? lines[i]!.slice(0, MAX_LINE_CHARS) + "…" : lines[i]!;
            matches.push(`${prefix ? prefix + "/" : ""}${e.rel}:${i + 1}: ${line}`);
          }
          return "continue";
        });
        if (end.by === "folders")
          stoppedBy = `stopped at ${ceilings.searchMaxDirs} folders, before entering ${showPath(prefix ? `${prefix}/${end.before}` : end.before)}`;
        stoppedBy ??= entryBoundReached(end, ceilings.searchMaxFiles, p.path.parts);
      } finally {
        ws.release(opened.dir);
      }
      const tail = stoppedBy ? `\n[${stoppedBy}; narrow the path or the pattern]` : "";
      if (matches.length === 0)
        return succeed(`no matches for ${JSON.stringify(args.pattern)} in ${files} files under ${showPath(p.path.text)}${tail}`);
      return succeed(matches.join("\n") + tail);
    },
  };
}

/** A searchable file's text, or null for anything special, hardlinked, too large or binary. */
function readCandidate(ws: AnchoredWorkspace, dir: DirHandle, name: string, maxBytes: number): string | null {
  const r = ws.openAt(dir, [name], O.RDONLY);
  if (!r.ok) return null;
  try {
    if (!r.stat.isFile() || r.stat.nlink > 1n || Number(r.stat.size) > maxBytes) return null;
    return decodeText(readBounded(r.fd, maxBytes, Number(r.stat.size)).bytes);
  } finally {
    fs.closeSync(r.fd);
  }
}

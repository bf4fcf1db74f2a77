// list_dir: the entries of a workspace directory, bounded in depth and in entries read (every kind
// counts); symlinks are shown as links and never entered (harness #9).
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import type { Ceilings } from "./ceilings.js";
import { resolvePath } from "./fileAccess.js";
import { badArgs, defineTool, fail, succeed } from "./toolKit.js";
import { entryBoundReached, NOT_EXPANDED, walkTree, type WalkEnd } from "./treeWalk.js";
import { showPath } from "./workspacePath.js";

export function listDirTool(ws: AnchoredWorkspace, ceilings: Ceilings): Tool {
  const schema: ObjectSchema = {
    type: "object",
    properties: {
      path: {
        type: "string",
        description: "Directory relative to the workspace folder; `.` for the folder itself",
        minLength: 1,
        maxLength: 4096,
      },
      depth: { type: "integer", description: "Levels to list (1 = direct entries)", minimum: 1, maximum: ceilings.listMaxDepth },
    },
    required: ["path"],
    additionalProperties: false,
  };
  const definition = defineTool({
    name: "list_dir",
    description: `List a directory ("." for the folder), depth levels deep (up to ${ceilings.listMaxEntries} entries).`,
    parameters: schema,
    effectClass: "read",
    retryPolicy: "safe_retry",
    cancellation: "FinishOnceStarted",
    requiresApproval: false,
    config: { listMaxEntries: ceilings.listMaxEntries, listMaxDepth: ceilings.listMaxDepth, notExpanded: [...NOT_EXPANDED] },
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `list ${showPath(String(args.path))}` } };
    },
    async invoke(args) {
      const bad = badArgs("list_dir", schema, args);
      if (bad) return bad;
      const p = resolvePath(ws, args.path as string);
      if (!p.ok) return fail(p.message);
      const opened = ws.openDir(ws.root, p.path.parts);
      if (!opened.ok) return fail(ws.describe(p.path, opened.errno));
      const lines: string[] = [];
      const depth = (args.depth as number | undefined) ?? 1;
      let end: WalkEnd;
      try {
        end = await walkTree(ws, opened.dir, { maxDepth: depth, maxEntries: ceilings.listMaxEntries }, (e) => {
          const indent = "  ".repeat(e.depth - 1);
          const suffix = {
            dir: NOT_EXPANDED.has(e.name) && e.depth < depth ? "/ (not expanded)" : "/",
            file: "",
            symlink: " (symbolic link, not followed)",
            other: " (special file: FIFO, socket or device)",
          }[e.kind];
          lines.push(`${indent}${e.name}${suffix}${e.notUtf8 ? " (name is not UTF-8; tools cannot address it)" : ""}`);
          return "continue";
        });
      } finally {
        ws.release(opened.dir);
      }
      const stopped = entryBoundReached(end, ceilings.listMaxEntries, p.path.parts);
      if (lines.length === 0 && !stopped) return succeed(`${showPath(p.path.text)} is empty`);
      return succeed([...lines, ...(stopped ? [`[${stopped}; list a subdirectory for more]`] : [])].join("\n"));
    },
  };
}

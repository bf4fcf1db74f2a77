// read_file: a bounded, line-ranged read of one regular, singly-linked text file beneath the
// workspace descriptor (harness #9).
import fs from "node:fs";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import type { Ceilings } from "./ceilings.js";
import { decodeText, openFileForRead, readBounded, resolvePath } from "./fileAccess.js";
import { badArgs, byteSize, defineTool, fail, succeed } from "./toolKit.js";
import { showPath } from "./workspacePath.js";

const schema: ObjectSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File path relative to the workspace folder", minLength: 1, maxLength: 4096 },
    startLine: { type: "integer", description: "First line to return (1-based)", minimum: 1 },
    endLine: { type: "integer", description: "Last line to return (inclusive)", minimum: 1 },
  },
  required: ["path"],
  additionalProperties: false,
};

export function readFileTool(ws: AnchoredWorkspace, ceilings: Ceilings): Tool {
  const max = ceilings.readMaxBytes;
  const definition = defineTool({
    name: "read_file",
    description: `Read a text file (at most ${byteSize(max)}); lines are 1-based, inclusive.`,
    parameters: schema,
    effectClass: "read",
    retryPolicy: "safe_retry",
    cancellation: "FinishOnceStarted",
    requiresApproval: false,
    config: { readMaxBytes: max },
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `read ${showPath(String(args.path))}` } };
    },
    async invoke(args) {
      const bad = badArgs("read_file", schema, args);
      if (bad) return bad;
      const start = (args.startLine as number | undefined) ?? 1;
      const end = args.endLine as number | undefined;
      if (end !== undefined && end < start) return fail(`refused: endLine ${end} is before startLine ${start}`);
      const p = resolvePath(ws, args.path as string);
      if (!p.ok) return fail(p.message);
      const f = openFileForRead(ws, p.path);
      if (!f.ok) return fail(f.message);
      let bytes: Buffer;
      let truncated: boolean;
      try {
        ({ bytes, truncated } = readBounded(f.fd, max, Number(f.stat.size)));
      } finally {
        fs.closeSync(f.fd);
      }
      const text = decodeText(bytes, truncated);
      if (text === null)
        return fail(`refused: ${showPath(p.path.text)} looks binary (a NUL byte or invalid UTF-8); read_file returns text only`);
      const lines = text.split("\n");
      // A final newline ends the last line rather than starting another; a truncated read's
      // last line was cut by the byte bound. Either way the last element is not a line.
      if (truncated || text.endsWith("\n")) lines.pop();
      if (start > lines.length) return fail(`${showPath(p.path.text)} has ${lines.length} lines; startLine ${start} is past the end`);
      const last = Math.min(end ?? lines.length, lines.length);
      const body = lines.slice(start - 1, last).join("\n") + (last === lines.length && text.endsWith("\n") && !truncated ? "\n" : "");
      const note = truncated
        ? `\n[truncated: the file is ${f.stat.size} bytes; only the first ${max} bytes were read — use startLine/endLine or search_files]`
        : "";
      return succeed(body + note);
    },
  };
}

// An MCP tool's input schema, brought into the bounded schema vocabulary (harness #5) or refused with
// the reason. Two rewrites only, neither of which lets a call through that the server's schema
// refuses: keywords that only annotate (`$schema`, `title`, `default`, `examples`, ...) are dropped,
// and an array without `maxItems` gets Hearth's bound (a narrowing). Anything else outside the
// vocabulary (`anyOf`, `$ref`, `minItems`, `format`, open objects) makes the tool unavailable.
import type { ObjectSchema } from "../../agent/ports/jsonSchema.js";
import { vocabularyProblems } from "../../agent/schemaCheck.js";

/** The bound an unbounded array of an MCP tool's arguments gets. */
export const MCP_ARRAY_MAX_ITEMS = 256;
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

function normalize(schema: unknown, depth: number): unknown {
  if (depth > 16 || typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k)) continue;
    if (k === "properties" && typeof v === "object" && v !== null && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, normalize(sub, depth + 1)]));
    } else if (k === "items") out[k] = normalize(v, depth + 1);
    else out[k] = v;
  }
  if (out.type === "array" && out.maxItems === undefined) out.maxItems = MCP_ARRAY_MAX_ITEMS;
  if (out.type === "object" && out.properties === undefined && depth === 0) out.properties = {};
  return out;
}

export type SchemaVerdict = { ok: true; schema: ObjectSchema } | { ok: false; reason: string };

export function mcpInputSchema(inputSchema: unknown): SchemaVerdict {
  const schema = normalize(inputSchema, 0);
  const problems = vocabularyProblems(schema);
  if (problems.length > 0) {
    return { ok: false, reason: `its input schema is outside Hearth's bounded vocabulary (${problems.slice(0, 3).join("; ")})` };
  }
  if ((schema as { type?: unknown }).type !== "object") return { ok: false, reason: "its input schema is not an object schema" };
  return { ok: true, schema: schema as ObjectSchema };
}

// What every tool shares: its frozen definition with a durable identity digest (harness #5,
// #19, #21), argument re-validation against the bounded schema vocabulary, and the shape of a
// proposal that already knows the call will be refused.
import { digestOf } from "../agent/canonicalJson.js";
import type { JsonSchema, ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { ToolDefinition, ToolProposal, ToolResult } from "../agent/ports/tools.js";

export type DefinitionInput = Omit<ToolDefinition, "identityDigest"> & { readonly config: unknown };

/** A frozen definition whose digest covers its schema, classes and configuration (ceilings). */
export function defineTool(input: DefinitionInput): ToolDefinition {
  const { config, ...def } = input;
  const identityDigest = digestOf("hearth.tool-identity.v1", { ...def, description: undefined, config });
  return deepFreeze({ ...def, identityDigest });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Re-checks arguments against the schema (harness #5); a message naming the first problem, or null. */
export function checkArgs(schema: ObjectSchema, args: unknown): string | null {
  return checkValue(schema, args, "arguments");
}

function checkValue(schema: JsonSchema, v: unknown, at: string): string | null {
  switch (schema.type) {
    case "string":
      if (typeof v !== "string") return `${at} must be a string`;
      if (schema.enum && !schema.enum.includes(v)) return `${at} must be one of ${schema.enum.join(", ")}`;
      if (schema.minLength !== undefined && v.length < schema.minLength) return `${at} must have at least ${schema.minLength} characters`;
      if (schema.maxLength !== undefined && v.length > schema.maxLength) return `${at} must have at most ${schema.maxLength} characters`;
      return null;
    case "integer":
    case "number":
      if (typeof v !== "number" || !Number.isFinite(v) || (schema.type === "integer" && !Number.isInteger(v)))
        return `${at} must be ${schema.type === "integer" ? "an integer" : "a number"}`;
      if (schema.minimum !== undefined && v < schema.minimum) return `${at} must be at least ${schema.minimum}`;
      if (schema.maximum !== undefined && v > schema.maximum) return `${at} must be at most ${schema.maximum}`;
      return null;
    case "boolean":
      return typeof v === "boolean" ? null : `${at} must be true or false`;
    case "array":
      if (!Array.isArray(v)) return `${at} must be an array`;
      if (v.length > schema.maxItems) return `${at} may have at most ${schema.maxItems} items`;
      for (let i = 0; i < v.length; i++) {
        const e = checkValue(schema.items, v[i], `${at}[${i}]`);
        if (e) return e;
      }
      return null;
    case "object": {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return `${at} must be an object`;
      const obj = v as Record<string, unknown>;
      for (const key of schema.required ?? []) if (obj[key] === undefined) return `${at === "arguments" ? "" : at + "."}${key} is required`;
      for (const [key, value] of Object.entries(obj)) {
        const sub = schema.properties[key];
        if (!sub) {
          if (schema.additionalProperties === false)
            return `unknown argument ${JSON.stringify(key)}; allowed: ${Object.keys(schema.properties).join(", ")}`;
          continue;
        }
        if (value === undefined) continue;
        const e = checkValue(sub, value, at === "arguments" ? key : `${at}.${key}`);
        if (e) return e;
      }
      return null;
    }
  }
}

/** A proposal that says the call cannot run: the harness answers with it and asks no one (harness #8). */
export function refusedProposal(message: string): ToolProposal {
  return { preview: { kind: "text", text: message }, refused: message };
}

/** invoke returns the same refusal without effects, should a refused proposal ever reach it. */
export function refusalOf(proposal: ToolProposal): string | null {
  return typeof proposal.refused === "string" ? proposal.refused : null;
}

export function fail(output: string): ToolResult {
  return { ok: false, output };
}

export function succeed(output: string): ToolResult {
  return { ok: true, output };
}

/** Argument checks for tools without a separate proposal step. */
export function badArgs(name: string, schema: ObjectSchema, args: unknown): ToolResult | null {
  const problem = checkArgs(schema, args);
  return problem ? fail(`refused: ${name} ${problem}`) : null;
}

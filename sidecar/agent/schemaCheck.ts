// The bounded JSON Schema vocabulary (ports/jsonSchema.ts) as code (harness #5): definitions are
// checked when a tool is built, and proposed arguments are rechecked against the same schema
// before dispatch, so generation and validation can never disagree on what a keyword means.
import type { JsonSchema, ObjectSchema } from "./ports/jsonSchema.js";

const ALLOWED_KEYS: Record<JsonSchema["type"], ReadonlySet<string>> = {
  string: new Set(["type", "description", "enum", "minLength", "maxLength"]),
  integer: new Set(["type", "description", "minimum", "maximum"]),
  number: new Set(["type", "description", "minimum", "maximum"]),
  boolean: new Set(["type", "description"]),
  array: new Set(["type", "description", "items", "maxItems"]),
  object: new Set(["type", "description", "properties", "required", "additionalProperties"]),
};
const MAX_DEPTH = 8;
const MAX_ERRORS = 5;

/** Problems that put `schema` outside the vocabulary; empty when it is inside. */
export function vocabularyProblems(schema: unknown, at = "$", depth = 0): string[] {
  if (depth > MAX_DEPTH) return [`${at}: nested deeper than ${MAX_DEPTH} levels`];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${at}: must be a schema object`];
  const s = schema as Record<string, unknown>;
  const type = s.type;
  if (typeof type !== "string" || !Object.hasOwn(ALLOWED_KEYS, type)) {
    return [`${at}.type: ${JSON.stringify(type)} is not one of ${Object.keys(ALLOWED_KEYS).join(", ")}`];
  }
  const problems = Object.keys(s)
    .filter((k) => !ALLOWED_KEYS[type as JsonSchema["type"]].has(k))
    .map((k) => `${at}.${k}: keyword not in the bounded vocabulary for type ${type}`);
  const num = (k: string, integer = false): void => {
    const v = s[k];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || (integer && (!Number.isInteger(v) || v < 0)))) {
      problems.push(`${at}.${k}: must be a ${integer ? "non-negative integer" : "finite number"}`);
    }
  };
  if (s.description !== undefined && typeof s.description !== "string") problems.push(`${at}.description: must be a string`);
  switch (type) {
    case "string":
      num("minLength", true);
      num("maxLength", true);
      if (s.enum !== undefined && (!Array.isArray(s.enum) || s.enum.length === 0 || !s.enum.every((e) => typeof e === "string"))) {
        problems.push(`${at}.enum: must be a non-empty array of strings`);
      }
      break;
    case "integer":
    case "number":
      num("minimum");
      num("maximum");
      break;
    case "array":
      if (s.maxItems === undefined) problems.push(`${at}.maxItems: required, arrays must be bounded`);
      num("maxItems", true);
      problems.push(...vocabularyProblems(s.items, `${at}.items`, depth + 1));
      break;
    case "object": {
      const props = s.properties;
      if (typeof props !== "object" || props === null || Array.isArray(props)) {
        problems.push(`${at}.properties: required object`);
        break;
      }
      for (const [k, v] of Object.entries(props)) problems.push(...vocabularyProblems(v, `${at}.properties.${k}`, depth + 1));
      const req = s.required;
      if (req !== undefined && (!Array.isArray(req) || !req.every((r) => typeof r === "string" && Object.hasOwn(props, r)))) {
        problems.push(`${at}.required: must list names declared in properties`);
      }
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
        problems.push(`${at}.additionalProperties: only false is in the vocabulary`);
      }
      break;
    }
  }
  return problems;
}

/** Why `value` does not satisfy `schema` (at most a few reasons); empty when it does. */
export function argumentProblems(schema: JsonSchema, value: unknown, at = "$"): string[] {
  const out: string[] = [];
  check(schema, value, at, out);
  return out.slice(0, MAX_ERRORS);
}

function check(schema: JsonSchema, value: unknown, at: string, out: string[]): void {
  if (out.length >= MAX_ERRORS) return;
  switch (schema.type) {
    case "string":
      if (typeof value !== "string") return void out.push(`${at}: expected a string`);
      if (schema.enum && !schema.enum.includes(value))
        out.push(`${at}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`);
      if (schema.minLength !== undefined && value.length < schema.minLength) out.push(`${at}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength) out.push(`${at}: longer than ${schema.maxLength}`);
      return;
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value))
        return void out.push(`${at}: expected ${schema.type === "integer" ? "an integer" : "a number"}`);
      if (schema.type === "integer" && !Number.isInteger(value)) return void out.push(`${at}: expected an integer`);
      if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below the minimum ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above the maximum ${schema.maximum}`);
      return;
    case "boolean":
      if (typeof value !== "boolean") out.push(`${at}: expected a boolean`);
      return;
    case "array":
      if (!Array.isArray(value)) return void out.push(`${at}: expected an array`);
      if (value.length > schema.maxItems) out.push(`${at}: more than ${schema.maxItems} items`);
      value.slice(0, schema.maxItems).forEach((v, i) => {
        check(schema.items, v, `${at}[${i}]`, out);
      });
      return;
    case "object":
      checkObject(schema, value, at, out);
  }
}

function checkObject(schema: ObjectSchema, value: unknown, at: string, out: string[]): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return void out.push(`${at}: expected an object`);
  const obj = value as Record<string, unknown>;
  for (const name of schema.required ?? []) if (!Object.hasOwn(obj, name)) out.push(`${at}.${name}: required`);
  for (const [k, v] of Object.entries(obj)) {
    const sub = Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (sub) check(sub, v, `${at}.${k}`, out);
    else if (schema.additionalProperties === false) out.push(`${at}.${k}: not a declared property`);
  }
}

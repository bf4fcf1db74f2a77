// What every tool shares: its frozen definition with a durable identity digest (harness #5,
// #19, #21), argument re-validation against the bounded schema vocabulary, and the shape of a
// proposal that already knows the call will be refused.
import { digestOf } from "../agent/canonicalJson.js";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { ToolDefinition, ToolProposal, ToolResult } from "../agent/ports/tools.js";
import { argumentProblems } from "../agent/schemaCheck.js";

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

/**
 * Re-checks arguments with the gate's own validator (harness #5), so a tool can never accept what
 * the execution gate refuses; a message naming the problems, or null.
 */
export function checkArgs(schema: ObjectSchema, args: unknown): string | null {
  const problems = argumentProblems(schema, args);
  return problems.length === 0 ? null : `arguments do not match its schema (${problems.join("; ")}); fix them and call again`;
}

/** A proposal that says the call cannot run: the harness answers with it and asks no one (harness #8). */
export function refusedProposal(message: string): ToolProposal {
  return { preview: { kind: "text", text: message }, refused: message };
}

/** invoke returns the same refusal without effects, should a refused proposal ever reach it. */
export function refusalOf(proposal: ToolProposal): string | null {
  return typeof proposal.refused === "string" ? proposal.refused : null;
}

/** A ceiling in a tool's description, short (every word of a description is in the first prompt): "1 MiB", "64 KiB". */
export function byteSize(bytes: number): string {
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  if (bytes >= 2 ** 10 && bytes % 2 ** 10 === 0) return `${bytes / 2 ** 10} KiB`;
  return `${bytes} bytes`;
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

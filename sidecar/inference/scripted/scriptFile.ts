// The scripted replay format (docs/scripted-adapter.md), validated with zod so a bad file is
// refused with the field that is wrong.
import fs from "node:fs";
import { z } from "zod";
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";

const Delay = z.number().int().min(0).max(60_000);

export const ScriptRound = z.strictObject({
  reasoning: z.array(z.string()).default([]),
  text: z.array(z.string()).default([]),
  toolCalls: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(64),
        arguments: z.unknown().default({}),
        /** Optional provider id: the harness ignores it and mints its own (harness #4). */
        id: z.string().optional(),
      }),
    )
    .default([]),
  /** Delay before each delta of this round, in milliseconds. */
  delayMs: Delay.default(0),
  /**
   * Test-only: the round's calls are streamed as a model writes them (issue 25 item 4), each call's start
   * and then its arguments in this many pieces, one delayMs apart; unset, the calls arrive only at the end.
   */
  toolCallPieces: z.number().int().min(1).max(100).optional(),
  /** Test-only: a terminal answer that differs from the streamed deltas (exercises harness #3). */
  terminalText: z.string().optional(),
  terminalReasoning: z.string().optional(),
  /** Test-only: the round ends as a model's answer cut at its token cap does (stop reason max_tokens, issue 25 item 10). */
  stoppedAtTokenCap: z.literal(true).optional(),
  /** Test-only: the round fails with this message after streaming its deltas. */
  error: z.string().optional(),
  /** Test-only: the round fails at once unless the user messages it is shown are exactly these, in order. */
  expectUsers: z.array(z.string()).optional(),
  /** Test-only: the round fails at once unless the tools offered to it are exactly these (any order). */
  expectTools: z.array(z.string()).optional(),
  /** Test-only: the round fails at once unless the outputs of the latest tool results it is shown are exactly these, in order. */
  expectToolOutputs: z.array(z.string()).optional(),
  /** Test-only: the round fails at once unless its system instructions contain each of these (project instructions, issue 27). */
  expectSystemIncludes: z.array(z.string()).optional(),
  /** Test-only: the round fails at once if its system instructions contain any of these (a source turned off). */
  expectSystemExcludes: z.array(z.string()).optional(),
});
export type ScriptRound = z.infer<typeof ScriptRound>;

export const ScriptFile = z.strictObject({
  rounds: z.array(ScriptRound).min(1),
  modelId: z.string().min(1).max(200).optional(),
  capabilities: z
    .strictObject({
      systemRole: z.enum(["proven", "disproven", "unknown"]).default("proven"),
      toolCalls: z.enum(["proven", "disproven", "unknown"]).default("proven"),
      reasoningHistory: z.enum(["proven", "disproven", "unknown"]).default("proven"),
      thinkingToggle: z.enum(["proven", "disproven", "unknown"]).default("proven"),
    })
    .optional(),
});
export type ScriptFile = z.infer<typeof ScriptFile>;

/** Parses a script; the error names the file and the first bad field, e.g. `rounds[1].toolCalls[0].name`. */
export function parseScript(json: unknown, source: string): ScriptFile {
  const parsed = ScriptFile.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${fieldPath(i.path)}: ${i.message}`);
  throw new HearthError(
    ErrorCode.InvalidParams,
    `refused scripted model ${source}: ${issues.join("; ")}; see docs/scripted-adapter.md for the format`,
  );
}

export function readScriptFile(file: string): ScriptFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new HearthError(ErrorCode.ModelUnavailable, `cannot read scripted model ${file}: ${errorMessage(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new HearthError(ErrorCode.InvalidParams, `refused scripted model ${file}: not valid JSON (${errorMessage(e)})`);
  }
  return parseScript(json, file);
}

function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

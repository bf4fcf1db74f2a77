// Where approval rules come from (issue 27, item 4): the person's hearth.approval.rules setting,
// which the editor passes to the kernel as HEARTH_APPROVAL_RULES (JSON), and the workspace's
// .hearth/rules.json, read through the workspace descriptor as each run starts, so an edit applies
// from the next turn. Bad rules are refused whole with where and why: a half-read rule set could
// drop the deny rule that mattered.
import type { z } from "zod";
import type { WorkspaceText } from "../../tools/workspaceText.js";
import { ApprovalRule, type RuleSet, WorkspaceRulesFile } from "./approvalRules.js";
import { loadShellParser } from "./shellCommand.js";

export const WORKSPACE_RULES_PATH = ".hearth/rules.json";
export const MAX_RULES_BYTES = 256 << 10;

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`).join("; ");
}

/** The person's rules; throws with what is wrong, for the kernel to refuse to start on (as HEARTH_TOOLS does). */
export async function userRulesFromEnv(value: string | undefined): Promise<ApprovalRule[]> {
  if (value === undefined || value.trim() === "") return [];
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (e) {
    throw new Error(`HEARTH_APPROVAL_RULES (the hearth.approval.rules setting) is not JSON: ${(e as Error).message}`);
  }
  await loadShellParser(); // patterns are read by the shell parser
  const parsed = ApprovalRule.array().max(500).safeParse(json);
  if (!parsed.success) throw new Error(`hearth.approval.rules: ${issues(parsed.error)}; fix the setting and restart the kernel`);
  return parsed.data;
}

/**
 * The rules for one run. A run in Restricted Mode (read-only: the folder is not trusted) gets none;
 * a trusted workspace's file adds its rules, and a file that is unreadable or invalid adds none and
 * is reported through `problem`, so every call the person's rules leave open asks.
 */
export async function ruleSetForRun(
  user: readonly ApprovalRule[],
  readText: (relPath: string, maxBytes: number) => WorkspaceText,
  readOnly: boolean,
): Promise<{ rules: RuleSet; problem?: string }> {
  if (readOnly) return { rules: { user, workspace: [], trust: "restricted" } };
  const file = readText(WORKSPACE_RULES_PATH, MAX_RULES_BYTES);
  const none = (why: string) => ({
    rules: { user, workspace: [], trust: "trusted" as const },
    problem: `${WORKSPACE_RULES_PATH} was not applied: ${why}; its calls ask until it is fixed`,
  });
  if (!file.ok) return none(file.message);
  if (file.text === null) return { rules: { user, workspace: [], trust: "trusted" } };
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (e) {
    return none(`it is not JSON (${(e as Error).message})`);
  }
  await loadShellParser();
  const parsed = WorkspaceRulesFile.safeParse(json);
  if (!parsed.success) return none(issues(parsed.error));
  return { rules: { user, workspace: parsed.data.rules, trust: "trusted" } };
}

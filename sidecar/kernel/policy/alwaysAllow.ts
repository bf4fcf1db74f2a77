// "Always allow `npm test` in this folder" (issue 27, item 4): the narrowest workspace rule a person
// may write from an approval card, and its append to .hearth/rules.json. Offered only for a shell
// call that is one simple command of literal words (no expansion, no redirection, no wrapper), so
// the rule allows exactly that command line and nothing wider; anything else offers no rule.
import type { WorkspaceEdit } from "../../tools/workspaceText.js";
import { decideByRules, type ApprovalRule, WorkspaceRulesFile } from "./approvalRules.js";
import { analyzeShellCommand, loadShellParser } from "./shellCommand.js";
import { MAX_RULES_BYTES, WORKSPACE_RULES_PATH } from "./ruleSources.js";

/** The pattern of the narrowest allow rule that covers `command` exactly; null when no rule can be that narrow. */
export async function narrowestShellPattern(command: string): Promise<string | null> {
  await loadShellParser();
  const a = analyzeShellCommand(command);
  if (!a.ok || a.fallbacks.length > 0 || a.commands.length !== 1) return null;
  const [only] = a.commands;
  // A literal `*` word would read back as "any further words": wider than what was approved.
  if (only!.origin !== "direct" || !only!.words.every((w) => w.literal && w.text !== "*")) return null;
  const pattern = only!.words.map((w) => quoteWord(w.text)).join(" ");
  const rule: ApprovalRule = { tool: "shell", command: pattern, decision: "allow" };
  const check = decideByRules({ user: [rule], workspace: [], trust: "trusted" }, { name: "shell", arguments: { command } });
  return check.decision === "allow" ? pattern : null;
}

function quoteWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Appends `allow shell <pattern>` to the workspace's .hearth/rules.json (made if absent), unless it is
 * there already. A file that is not valid rules is left as it is: appending to it would hide the error.
 */
export function appendAllowRule(edit: WorkspaceEdit, pattern: string): { ok: boolean; message: string } {
  const rule: ApprovalRule = { tool: "shell", command: pattern, decision: "allow" };
  let note = "";
  const written = edit(WORKSPACE_RULES_PATH, MAX_RULES_BYTES, (current) => {
    let rules: ApprovalRule[] = [];
    if (current !== null) {
      let json: unknown;
      try {
        json = JSON.parse(current);
      } catch (e) {
        throw new Error(`${WORKSPACE_RULES_PATH} is not JSON (${(e as Error).message}); fix it, then allow again`);
      }
      const parsed = WorkspaceRulesFile.safeParse(json);
      if (!parsed.success) throw new Error(`${WORKSPACE_RULES_PATH} is not a valid rules file; fix it, then allow again`);
      rules = parsed.data.rules;
    }
    const at = rules.findIndex((r) => r.tool === "shell" && r.command === pattern && r.decision === "allow");
    if (at >= 0) {
      note = `the rule "allow shell \`${pattern}\`" is already ${WORKSPACE_RULES_PATH} #${at + 1}`;
      return null;
    }
    note = `from now on "allow shell \`${pattern}\`" (${WORKSPACE_RULES_PATH} #${rules.length + 1}) allows it in this folder`;
    return `${JSON.stringify({ rules: [...rules, rule] }, null, 2)}\n`;
  });
  return written.ok ? { ok: true, message: note } : { ok: false, message: `the rule was not written: ${written.message}` };
}

// The approval path's one call into the rules (issue 27, item 4): before a person is asked, a rule
// may decide. allow → approved without asking, deny → denied naming the rule, ask (or no rule) →
// null, and the person is asked as before; with nobody to ask that still denies (harness #8).
import { singleLine } from "../../../shared/boundedText.js";
import type { ApprovalDecision, ApprovalRequest } from "../../agent/index.js";
import { decideByRules, ruleLabel, type RuleSet } from "./approvalRules.js";
import { loadShellParser } from "./shellCommand.js";

/** A rule's decision, with the rule and where it is defined (`rule`), for the journal and the card. */
export type RuleApproval = ApprovalDecision & { rule: string };

export async function approvalByRule(rules: RuleSet | undefined, req: ApprovalRequest): Promise<RuleApproval | null> {
  if (!rules || rules.trust === "restricted" || rules.user.length + rules.workspace.length === 0) return null;
  await loadShellParser();
  const d = decideByRules(rules, req.call);
  if (d.decision === "ask") return null;
  return {
    decision: d.decision === "allow" ? "approve" : "deny",
    callId: req.call.callId,
    inputHash: req.inputHash,
    reason: singleLine(d.reason),
    rule: ruleLabel(d.rule),
  };
}

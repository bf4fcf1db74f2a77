// The approval path's call into the rules (issue 27, item 4; harness #8): a rule's allow or deny
// answers exactly the call asked about; ask, no rules and Restricted Mode leave it to a person.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { ApprovalRequest } from "../../../../../sidecar/agent/index.js";
import type { RuleSet } from "../../../../../sidecar/kernel/policy/approvalRules.js";
import { approvalByRule } from "../../../../../sidecar/kernel/policy/ruleApproval.js";

function request(command: string): ApprovalRequest {
  return {
    sessionKey: "s",
    turnId: "t",
    call: { callId: "call-1", name: "shell", arguments: { command } },
    inputHash: "hash-1",
    effectClass: "non_idempotent_write",
    preview: { kind: "text", text: command },
    signal: new AbortController().signal,
  };
}

const rules = (trust: RuleSet["trust"]): RuleSet => ({
  user: [
    { tool: "shell", command: "npm test", decision: "allow" },
    { tool: "shell", command: "rm", decision: "deny" },
  ],
  workspace: [],
  trust,
});

it("allow approves and deny denies the exact call, each with the rule in its reason", async () => {
  assert.deepEqual(await approvalByRule(rules("trusted"), request("npm test")), {
    decision: "approve",
    callId: "call-1",
    inputHash: "hash-1",
    reason: 'approved by rule "allow shell `npm test`" (user settings (hearth.approval.rules) #1)',
    rule: '"allow shell `npm test`" (user settings (hearth.approval.rules) #1)',
  });
  const denied = await approvalByRule(rules("trusted"), request("rm -rf x"));
  assert.equal(denied?.decision, "deny");
  assert.match(denied?.reason ?? "", /denied by rule "deny shell `rm`"/);
  assert.equal(
    denied?.rule,
    '"deny shell `rm`" (user settings (hearth.approval.rules) #2)',
    "the rule and where it is defined, for the journal",
  );
});

it("ask, no rules at all and Restricted Mode leave the call to a person", async () => {
  assert.equal(await approvalByRule(rules("trusted"), request("npm test; npm publish")), null);
  assert.equal(await approvalByRule(undefined, request("npm test")), null);
  assert.equal(await approvalByRule({ user: [], workspace: [], trust: "trusted" }, request("npm test")), null);
  assert.equal(await approvalByRule(rules("restricted"), request("rm -rf x")), null);
});

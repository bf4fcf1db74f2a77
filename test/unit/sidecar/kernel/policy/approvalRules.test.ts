// Approval rules beyond the shell corpus: where rules apply, tool rules, the rule schema (issue 27, item 4).
import assert from "node:assert/strict";
import { before, it } from "node:test";
import { ApprovalRule, decideByRules, type RuleSet, WorkspaceRulesFile } from "../../../../../sidecar/kernel/policy/approvalRules.js";
import { loadShellParser } from "../../../../../sidecar/kernel/policy/shellCommand.js";

before(() => loadShellParser());

const shell = (command: string) => ({ name: "shell", arguments: { command } });
const allowNpmTest: ApprovalRule = { tool: "shell", command: "npm test", decision: "allow" };

it("in Restricted Mode no rule applies, the person's neither: every call asks", () => {
  const rules: RuleSet = { user: [allowNpmTest, { tool: "read_file", decision: "deny" }], workspace: [allowNpmTest], trust: "restricted" };
  for (const call of [shell("npm test"), { name: "read_file", arguments: { path: "a" } }]) {
    const d = decideByRules(rules, call);
    assert.equal(d.decision, "ask");
    assert.match(d.reason, /Restricted Mode/);
  }
});

it("a workspace's rules and the person's both apply in a trusted workspace, each named by where it is defined", () => {
  const rules: RuleSet = { user: [allowNpmTest], workspace: [{ tool: "shell", command: "make", decision: "allow" }], trust: "trusted" };
  const d = decideByRules(rules, shell("npm test && make"));
  assert.equal(d.decision, "allow");
  assert.equal(d.rule?.source, "user settings (hearth.approval.rules)");
  const w = decideByRules(rules, shell("make"));
  assert.equal(w.rule?.source, "workspace .hearth/rules.json");
  assert.match(w.reason, /"allow shell `make`" \(workspace \.hearth\/rules\.json #1\)/);
});

it("deny wins over allow, wherever each is defined, and names its rule", () => {
  const rules: RuleSet = {
    user: [allowNpmTest],
    workspace: [{ tool: "shell", command: "npm", decision: "deny", name: "no npm here" }],
    trust: "trusted",
  };
  const d = decideByRules(rules, shell("npm test"));
  assert.equal(d.decision, "deny");
  assert.match(d.reason, /denied by rule "no npm here" \(workspace \.hearth\/rules\.json #1\); to run it, change that rule/);
});

it("a shell rule without a pattern denies or asks every command, even one that does not parse", () => {
  const deny: RuleSet = { user: [allowNpmTest, { tool: "shell", decision: "deny" }], workspace: [], trust: "trusted" };
  assert.equal(decideByRules(deny, shell("npm test")).decision, "deny");
  assert.equal(decideByRules(deny, shell("echo 'x")).decision, "deny");
  const ask: RuleSet = { user: [allowNpmTest, { tool: "shell", decision: "ask" }], workspace: [], trust: "trusted" };
  assert.equal(decideByRules(ask, shell("npm test")).decision, "ask");
});

it("tool rules: deny over ask over allow, a tool no rule names asks, and a write into .hearth/ is never allowed by a rule", () => {
  const rules: RuleSet = {
    user: [
      { tool: "write_file", decision: "allow" },
      { tool: "web_fetch", decision: "allow" },
      { tool: "web_fetch", decision: "deny" },
      { tool: "edit_file", decision: "allow" },
      { tool: "edit_file", decision: "ask" },
    ],
    workspace: [],
    trust: "trusted",
  };
  const decide = (name: string, path = "src/a.ts") => decideByRules(rules, { name, arguments: { path } }).decision;
  assert.equal(decide("write_file"), "allow");
  assert.equal(decide("web_fetch"), "deny");
  assert.equal(decide("edit_file"), "ask");
  assert.equal(decide("read_file"), "ask");
  assert.equal(decide("write_file", ".hearth/rules.json"), "ask");
  assert.equal(decide("write_file", "./.hearth/../.hearth/rules.json"), "ask");
  assert.equal(decide("write_file", "sub/.hearth/x"), "ask");
});

it("the rule schema refuses what it cannot apply, saying why", () => {
  const refuse = (rule: unknown, why: RegExp) => {
    const r = ApprovalRule.safeParse(rule);
    assert.equal(r.success, false, JSON.stringify(rule));
    assert.match(r.error!.issues.map((i) => i.message).join("; "), why);
  };
  refuse({ tool: "shell", decision: "allow" }, /needs a command pattern/);
  refuse({ tool: "read_file", command: "x", decision: "allow" }, /only shell rules take a command pattern/);
  refuse({ tool: "shell", command: "npm test; rm x", decision: "allow" }, /one simple command/);
  refuse({ tool: "shell", command: "npm $X", decision: "allow" }, /expands; only a last \* may/);
  refuse({ tool: "shell", command: "npm * test", decision: "allow" }, /expands/);
  refuse({ tool: "shell", command: "echo 'x", decision: "deny" }, /not a shell command/);
  refuse({ tool: "shell", command: "npm test", decision: "always" }, /allow|ask|deny/);
  refuse({ tool: "shell", command: "npm test", decision: "allow", extra: 1 }, /extra/);
  for (const ok of ["npm test", "npm run *", "*", "sudo", "'npm' test"])
    assert.ok(ApprovalRule.safeParse({ tool: "shell", command: ok, decision: "deny" }).success, ok);
  assert.equal(WorkspaceRulesFile.safeParse({ rules: [allowNpmTest] }).success, true);
});

it("a pattern `*` allows any one command, yet never a construct no rule can vouch for", () => {
  const rules: RuleSet = { user: [{ tool: "shell", command: "*", decision: "allow" }], workspace: [], trust: "trusted" };
  assert.equal(decideByRules(rules, shell("make && npm publish")).decision, "allow");
  assert.equal(decideByRules(rules, shell("bash -c 'make'")).decision, "ask");
  assert.equal(decideByRules(rules, shell("make > out")).decision, "ask");
});

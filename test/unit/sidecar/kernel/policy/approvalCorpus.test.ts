// The corpus (issue 27, item 5): every command gets its expected decision under one set of user and
// workspace rules, and the decision names the rule that made it.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { decideByRules, type RuleSet } from "../../../../../sidecar/kernel/policy/approvalRules.js";
import { loadShellParser } from "../../../../../sidecar/kernel/policy/shellCommand.js";
import { CORPUS, USER_RULES, WORKSPACE_RULES } from "./shellCorpus.js";

before(() => loadShellParser());

const RULES: RuleSet = { user: USER_RULES, workspace: WORKSPACE_RULES, trust: "trusted" };

describe("approval rules corpus: a rule allows a command only if it covers every simple command in it (issue 27)", () => {
  it("holds at least 150 commands, each once", () => {
    assert.ok(CORPUS.length >= 150, `${CORPUS.length} commands`);
    assert.equal(new Set(CORPUS.map(([c]) => c)).size, CORPUS.length);
  });
  for (const [command, expected, why] of CORPUS) {
    it(`${JSON.stringify(command).slice(0, 100)} → ${expected}: ${why}`, () => {
      const d = decideByRules(RULES, { name: "shell", arguments: { command } });
      assert.equal(d.decision, expected, d.reason);
      if (d.decision !== "ask") assert.ok(d.rule && d.reason.includes(d.rule.source), d.reason);
    });
  }
});

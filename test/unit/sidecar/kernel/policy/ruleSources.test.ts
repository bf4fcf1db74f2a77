// Where rules come from (issue 27, item 4): the setting, refused whole with why; the workspace's file,
// applied only when trusted, and a bad file applies no rule of it (so its calls ask) and says why.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ruleSetForRun, userRulesFromEnv } from "../../../../../sidecar/kernel/policy/ruleSources.js";
import type { WorkspaceText } from "../../../../../sidecar/tools/workspaceText.js";

const file =
  (text: string | null, ok = true): ((p: string, max: number) => WorkspaceText) =>
  (p) => {
    assert.equal(p, ".hearth/rules.json");
    return ok ? { ok: true, text } : { ok: false, message: "refused: .hearth/rules.json is or passes through a symbolic link" };
  };

it("the person's rules come from HEARTH_APPROVAL_RULES; bad JSON or a bad rule is refused saying where", async () => {
  assert.deepEqual(await userRulesFromEnv(undefined), []);
  assert.deepEqual(await userRulesFromEnv('[{"tool":"shell","command":"npm test","decision":"allow"}]'), [
    { tool: "shell", command: "npm test", decision: "allow" },
  ]);
  await assert.rejects(userRulesFromEnv("[{"), /HEARTH_APPROVAL_RULES .* is not JSON/);
  await assert.rejects(
    userRulesFromEnv('[{"tool":"shell","decision":"allow"}]'),
    /hearth\.approval\.rules: 0: .*needs a command pattern.*restart/,
  );
});

it("a trusted workspace's file adds its rules; Restricted Mode reads no file and applies no rule", async () => {
  const text = '{"rules":[{"tool":"shell","command":"make","decision":"allow"}]}';
  const trusted = await ruleSetForRun([], file(text), false);
  assert.deepEqual(trusted.rules, { user: [], workspace: [{ tool: "shell", command: "make", decision: "allow" }], trust: "trusted" });
  assert.equal(trusted.problem, undefined);
  const restricted = await ruleSetForRun([], () => assert.fail("Restricted Mode reads no rules file"), true);
  assert.equal(restricted.rules.trust, "restricted");
  assert.deepEqual(await ruleSetForRun([], file(null), false), { rules: { user: [], workspace: [], trust: "trusted" } });
});

it("an invalid or unreadable workspace file applies none of its rules and says why", async () => {
  for (const [read, why] of [
    [file("{"), /not JSON/],
    [file('{"rules":[{"tool":"shell","command":"a;b","decision":"allow"}]}'), /rules\.0\.command: .*one simple command/],
    [file('{"allow":[]}'), /allow/],
    [file(null, false), /symbolic link/],
  ] as const) {
    const r = await ruleSetForRun([], read, false);
    assert.deepEqual(r.rules.workspace, []);
    assert.match(r.problem ?? "", why);
    assert.match(r.problem ?? "", /was not applied: .*; its calls ask until it is fixed/);
  }
});

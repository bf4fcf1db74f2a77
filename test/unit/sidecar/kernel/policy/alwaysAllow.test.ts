// "Always allow `<command>` in this folder" (issue 27, item 4): the rule offered is the narrowest one,
// allowing exactly the approved command line, and is offered for nothing a rule cannot vouch for;
// writing it appends to .hearth/rules.json through the workspace descriptor and never hides a broken file.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { decideByRules } from "../../../../../sidecar/kernel/policy/approvalRules.js";
import { appendAllowRule, narrowestShellPattern } from "../../../../../sidecar/kernel/policy/alwaysAllow.js";
import { buildWorkspaceTools } from "../../../../../sidecar/tools/buildWorkspaceTools.js";

const allows = (pattern: string, command: string) =>
  decideByRules(
    { user: [], workspace: [{ tool: "shell", command: pattern, decision: "allow" }], trust: "trusted" },
    { name: "shell", arguments: { command } },
  ).decision === "allow";

describe("the narrowest rule an approval card offers (issue 27, item 4)", () => {
  it("one simple command of literal words gets a rule for exactly it, quoted as needed", async () => {
    assert.equal(await narrowestShellPattern("npm test"), "npm test");
    assert.equal(await narrowestShellPattern('git commit -m "fix the build"'), "git commit -m 'fix the build'");
    assert.equal(await narrowestShellPattern("echo it's"), null, "an unbalanced quote does not parse: no rule");
    const pattern = (await narrowestShellPattern("npm test"))!;
    assert.ok(allows(pattern, "npm test"));
    for (const wider of ["npm test --watch", "npm test; rm -rf x", "npm run build", "npm"])
      assert.equal(allows(pattern, wider), false, `the rule for \`npm test\` does not allow \`${wider}\``);
    const quoted = (await narrowestShellPattern('git commit -m "fix the build"'))!;
    assert.ok(allows(quoted, 'git commit -m "fix the build"'));
    assert.equal(allows(quoted, 'git commit -m "fix the build" --amend'), false);
  });

  it("offers no rule for what a rule could not vouch for: lists, substitution, wrappers, redirections, globs", async () => {
    for (const command of [
      "npm test; rm -rf x",
      "npm test && npm run lint",
      'bash -c "npm test"',
      "echo $(whoami)",
      "ls $HOME",
      "sudo npm test",
      "npm test > out.txt",
      "cat *.md",
      "echo '*'",
      "FOO=1 npm test",
      "npm test | sh",
      "",
    ])
      assert.equal(await narrowestShellPattern(command), null, `no rule offered for \`${command}\``);
  });
});

describe("writing the rule to .hearth/rules.json (issue 27, item 4)", () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-always-")));
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  const tools = buildWorkspaceTools({ workspaceRoot: ws, shell: false });
  after(() => {
    tools.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const file = path.join(ws, ".hearth", "rules.json");

  it("creates the file with the rule, keeps the rules already there, and does not add a rule twice", () => {
    const first = appendAllowRule(tools.editText, "npm test");
    assert.deepEqual(first, { ok: true, message: 'from now on "allow shell `npm test`" (.hearth/rules.json #1) allows it in this folder' });
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), { rules: [{ tool: "shell", command: "npm test", decision: "allow" }] });
    assert.equal(appendAllowRule(tools.editText, "npm run lint").ok, true);
    assert.match(appendAllowRule(tools.editText, "npm test").message, /already \.hearth\/rules\.json #1/);
    assert.deepEqual(
      (JSON.parse(fs.readFileSync(file, "utf8")) as { rules: { command: string }[] }).rules.map((r) => r.command),
      ["npm test", "npm run lint"],
    );
  });

  it("a broken rules file is left as it is and the refusal says what to fix; a link is not followed", () => {
    fs.writeFileSync(file, '{"rules": [ broken');
    const broken = appendAllowRule(tools.editText, "npm test");
    assert.equal(broken.ok, false);
    assert.match(broken.message, /the rule was not written: \.hearth\/rules\.json is not JSON .*fix it, then allow again/);
    assert.equal(fs.readFileSync(file, "utf8"), '{"rules": [ broken');
    fs.rmSync(file);
    const outside = path.join(root, "outside.json");
    fs.writeFileSync(outside, '{"rules":[]}');
    fs.symlinkSync(outside, file);
    const linked = appendAllowRule(tools.editText, "npm test");
    assert.equal(linked.ok, false, JSON.stringify(linked));
    assert.equal(fs.readFileSync(outside, "utf8"), '{"rules":[]}', "the file the link points to is untouched");
  });
});

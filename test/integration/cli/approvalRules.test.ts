// Approval rules in the kernel's approval path (issue 27, item 4 done-when), as a user runs them: a
// real CLI, a real kernel, real shell commands and the scripted adapter. The CLI has no terminal
// here, so a call that asks is denied "by --approve never": that denial is the proof it asked.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { ApprovalDecisionRecord, HistoryMessage } from "../../../shared/protocol/index.js";
import { isolatedEnv, runCli } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";

const shell = (command: string) => ({ toolCalls: [{ name: "shell", arguments: { command } }] });

it("a rule allows `npm test` without asking; `npm test; rm -rf x` and `bash -c` ask; a deny rule denies naming itself (issue 27)", async () => {
  const root = tempDir("rules");
  const ws = path.join(root, "ws");
  fs.mkdirSync(path.join(ws, ".hearth"), { recursive: true });
  fs.mkdirSync(path.join(ws, "x"));
  fs.writeFileSync(path.join(ws, "package.json"), JSON.stringify({ name: "w", scripts: { test: "echo ran >> ran.txt" } }));
  fs.writeFileSync(
    path.join(ws, ".hearth", "rules.json"),
    JSON.stringify({ rules: [{ tool: "shell", command: "curl", decision: "deny", name: "no network from shell" }] }),
  );
  const script = path.join(root, "script.json");
  const commands = ["npm test", "npm test; rm -rf x", 'bash -c "npm test"', "curl -s http://127.0.0.1:9/"];
  fs.writeFileSync(script, JSON.stringify({ rounds: [...commands.map(shell), { text: ["Done."] }] }));
  const db = path.join(root, "journal.sqlite");
  const env = {
    ...isolatedEnv(root),
    HEARTH_ALLOW_SCRIPTED: "1",
    HEARTH_APPROVAL_RULES: JSON.stringify([{ tool: "shell", command: "npm test", decision: "allow" }]),
  };
  const run = await runCli(["exec", "--workspace", ws, "--db", db, "--model", `scripted:${script}`, "--json", "test it"], env);
  assert.equal(run.code, 0, run.stderr);
  const sessionId = (JSON.parse(run.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
  const show = await runCli(["show", "--workspace", ws, "--db", db, "--json", sessionId], env);
  assert.equal(show.code, 0, show.stderr);
  const shown = JSON.parse(show.stdout) as { messages: HistoryMessage[]; decisions?: ApprovalDecisionRecord[] };
  const results = shown.messages.filter((m) => m.role === "tool");
  assert.equal(results.length, commands.length);
  const [allowed, chained, wrapped, denied] = results as (HistoryMessage & { ok: boolean; output: string })[];

  assert.equal(allowed!.ok, true, allowed!.output);
  assert.equal(fs.readFileSync(path.join(ws, "ran.txt"), "utf8"), "ran\n", "npm test ran once: only the allowed call ran");
  assert.doesNotMatch(run.stderr, /\[approval\] shell .*"npm test"\}/, "the allowed call was not put to the terminal");

  for (const asked of [chained!, wrapped!]) {
    assert.equal(asked.ok, false);
    assert.match(asked.output, /denied by --approve never/, "it was asked, and with nobody to ask that is a denial");
  }
  assert.equal(denied!.ok, false);
  assert.match(denied!.output, /denied by rule "no network from shell" \(workspace \.hearth\/rules\.json #1\)/);
  assert.ok(fs.existsSync(path.join(ws, "x")), "nothing removed x");

  // Every automatic decision is journaled with the rule that made it and where it is defined (issue 27, item 4).
  const byRule = (shown.decisions ?? []).filter((d) => d.surface === "rule");
  assert.deepEqual(
    byRule.map((d) => [d.decision, d.decidedBy.clientId]),
    [
      ["approve", '"allow shell `npm test`" (user settings (hearth.approval.rules) #1)'],
      ["deny", '"no network from shell" (workspace .hearth/rules.json #1)'],
    ],
  );
  assert.ok(
    byRule.every((d) => d.decidedBy.kind === "kernel" && /by rule/.test(d.reason)),
    JSON.stringify(byRule),
  );
});

it("a bad rule in the setting stops the kernel saying which rule and why, rather than dropping it", async () => {
  const root = tempDir("rules-bad");
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  const env = {
    ...isolatedEnv(root),
    HEARTH_APPROVAL_RULES: JSON.stringify([{ tool: "shell", command: "npm test; rm -rf x", decision: "allow" }]),
  };
  const run = await runCli(["sessions", "--workspace", ws, "--db", path.join(root, "journal.sqlite")], env);
  assert.equal(run.code, 4, "a kernel that refuses to start is exit code 4");
  assert.match(run.stderr, /hearth\.approval\.rules: 0\.command: .*must be one simple command/);
});

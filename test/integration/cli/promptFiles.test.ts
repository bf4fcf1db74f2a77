// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt file texts, whose ${…} variables are the subject
// Prompt files (issue 27, item 3), as a user runs them: a real CLI and kernel reading the workspace's
// .github/prompts, .claude/commands and .hearth/prompts through its descriptor, the scripted adapter
// asserting the message the model is shown and the tools it is offered. Invariants: `hearth exec
// --prompt NAME ARGS` sends the kernel's expansion as the user's message, in the mode the file names
// (Ask offers the read tools only); `hearth prompts` lists each file and why one cannot run; a
// malformed file and one whose question has no answer are refused, saying why, and leave no session;
// `--input K=V` answers a question.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { PromptList } from "../../../shared/protocol/prompts.js";
import { scriptedCliWorkspace } from "../../support/cliProcess.js";

const READ_TOOLS = ["list_dir", "read_file", "search_files"];

it("a prompt file is sent as the user's message in its own mode; a malformed or unanswerable one is refused (issue 27)", async () => {
  const { workspace, script, hearth } = scriptedCliWorkspace("prompt-files", [
    { expectUsers: ["Explain the journal cache in plain words."], expectTools: READ_TOOLS, text: ["It caches."] },
  ]);
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), text);
  };
  const second = path.join(path.dirname(script), "second.json");
  fs.writeFileSync(second, JSON.stringify({ rounds: [{ expectUsers: ["Rename parse to parseAll."], text: ["Renamed."] }] }));
  write(".github/prompts/explain.prompt.md", "---\ndescription: Explain code\nmode: ask\n---\nExplain {{args}} in plain words.\n");
  write(".claude/commands/fix.md", "Fix issue #$1.\n");
  write(".hearth/prompts/bad.md", "---\nmode: [ask\n---\nx\n");
  write(".hearth/prompts/ask.md", "Rename ${input:old} to ${input:new}.\n");

  const listed = await hearth("prompts", "--json");
  assert.equal(listed.code, 0, listed.stderr);
  const list = JSON.parse(listed.stdout) as PromptList;
  assert.deepEqual(
    list.prompts.map((p) => [p.name, p.source, p.mode, p.inputs.map((i) => i.name), p.problem !== undefined]),
    [
      ["ask", ".hearth/prompts/ask.md", null, ["old", "new"], false],
      ["bad", ".hearth/prompts/bad.md", null, [], true],
      ["explain", ".github/prompts/explain.prompt.md", "ask", [], false],
      ["fix", ".claude/commands/fix.md", null, [], false],
    ],
  );
  const human = await hearth("prompts");
  assert.match(human.stdout, /\/explain +Explain code \[ask\] \(\.github\/prompts\/explain\.prompt\.md\)/);
  assert.match(human.stdout, /\/bad +not usable: \.hearth\/prompts\/bad\.md: its front matter is not YAML/);

  const ran = await hearth("exec", "--json", "--model", `scripted:${script}`, "--prompt", "explain", "the", "journal", "cache");
  assert.equal(ran.code, 0, ran.stderr + ran.stdout);
  assert.match(ran.stdout, /"text":"It caches\."/);

  const bad = await hearth("exec", "--model", `scripted:${script}`, "--prompt", "bad");
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /refused \/bad: \.hearth\/prompts\/bad\.md: its front matter is not YAML.*docs\/prompts\.md/);
  const unanswered = await hearth("exec", "--model", `scripted:${script}`, "--prompt", "ask");
  assert.notEqual(unanswered.code, 0);
  assert.match(unanswered.stderr, /refused \.hearth\/prompts\/ask\.md: \/ask asks for old, new: no answer was given/);
  const sessions = await hearth("sessions", "--json");
  assert.equal((JSON.parse(sessions.stdout) as { sessions: unknown[] }).sessions.length, 1, "a refused prompt leaves no session behind");

  const answered = await hearth(
    "exec",
    "--json",
    "--model",
    `scripted:${second}`,
    "--prompt",
    "ask",
    "--input",
    "old=parse",
    "--input",
    "new=parseAll",
  );
  assert.equal(answered.code, 0, answered.stderr + answered.stdout);
  const typo = await hearth("exec", "--model", `scripted:${second}`, "--prompt", "ask", "--input", "old=a", "--input", "nwe=b");
  assert.notEqual(typo.code, 0);
  assert.match(typo.stderr, /\/ask asks for new: no answer was given/);
});

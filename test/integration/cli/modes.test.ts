// Modes (issue 27, item 2, done-when), as a user runs them: a real CLI and kernel, the scripted
// adapter asserting what each round is offered and shown, the journal read from its SQLite file.
// Invariants: Plan mode is never offered write or shell (and a write it proposes anyway never
// runs, even with --approve all); the journal records each run's mode and offered tools; a mode's
// instructions reach the model; "Implement this plan" continues the same session in Code mode with
// the plan in the message; a workspace's mode narrows to the tools it names; a mistyped mode is
// refused with the list of modes and leaves no session behind.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { implementPlanMessage } from "../../../shared/implementPlan.js";
import { isolatedEnv, runCli } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";

const READ_TOOLS = ["list_dir", "read_file", "search_files"];
const PLAN = "- [ ] add a failing test\n- [ ] fix parse()";

function workspace(name: string) {
  const root = tempDir(name);
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  const db = path.join(root, "journal.sqlite");
  const env = { ...isolatedEnv(root), HEARTH_ALLOW_SCRIPTED: "1" };
  const cli = (args: string[]) => runCli([...args.slice(0, 1), "--workspace", ws, "--db", db, ...args.slice(1)], env);
  const script = (file: string, rounds: Record<string, unknown>[]) => {
    fs.writeFileSync(path.join(root, file), JSON.stringify({ rounds }));
    return `scripted:${path.join(root, file)}`;
  };
  const offered = () => {
    const j = new Database(db, { readonly: true });
    try {
      const rows = j.prepare(`SELECT payload_json FROM events WHERE type = 'run.tools_offered' ORDER BY rowid`).all() as {
        payload_json: string;
      }[];
      return rows.map((r) => JSON.parse(r.payload_json) as { mode: string; modeSource: string; tools: string[] });
    } finally {
      j.close();
    }
  };
  return { root, ws, cli, script, offered };
}

it("Plan mode is offered read-only tools and its instructions; Implement continues the session in Code mode with the plan (issue 27)", async () => {
  const { ws, cli, script, offered } = workspace("modes-plan");
  // One script for the session (it keeps its model): rounds are numbered by the assistant messages so far.
  const model = script("session.json", [
    {
      expectTools: READ_TOOLS,
      expectSystemIncludes: ["# Mode: Plan", "Markdown checklist"],
      toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "planned, not written" } }],
    },
    // harness #5: the refused call's definition is advertised again only so the turn can replay it.
    {
      expectTools: [...READ_TOOLS, "write_file"],
      expectToolOutputs: ["refused: tool write_file is disabled in this session; it was not run"],
      text: [PLAN],
    },
    {
      expectUsers: ["fix the parser", implementPlanMessage(PLAN)],
      expectSystemExcludes: ["# Mode: Plan"],
      toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "implemented" } }],
    },
    { text: ["Done."] },
  ]);
  const plan = await cli(["exec", "--approve", "all", "--json", "--mode", "plan", "--model", model, "fix the parser"]);
  assert.equal(plan.code, 0, plan.stderr + plan.stdout);
  assert.equal(fs.existsSync(path.join(ws, "x.txt")), false, "a write proposed in Plan mode never runs, even with --approve all");
  const sessionId = (JSON.parse(plan.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;

  const code = await cli(["exec", "--approve", "all", "--session", sessionId, "--implement"]);
  assert.equal(code.code, 0, code.stderr);
  assert.equal(fs.readFileSync(path.join(ws, "x.txt"), "utf8"), "implemented", "Code mode may write");

  const runs = offered();
  assert.deepEqual(
    runs.map((r) => [r.mode, r.modeSource]),
    [
      ["plan", "built-in"],
      ["code", "built-in"],
    ],
  );
  assert.deepEqual([...runs[0]!.tools].sort(), READ_TOOLS);
  for (const t of ["write_file", "edit_file", "shell"]) assert.ok(runs[1]!.tools.includes(t), `Code mode offers ${t}: ${runs[1]!.tools}`);
});

it("a workspace's mode offers only the tools it names and shows its instructions; a mistyped mode is refused and lists the modes (issue 27)", async () => {
  const { ws, cli, script, offered } = workspace("modes-custom");
  fs.mkdirSync(path.join(ws, ".hearth", "modes"), { recursive: true });
  fs.writeFileSync(
    path.join(ws, ".hearth", "modes", "reviewer.md"),
    "---\ndescription: Reviews a change\ntools: [read_file]\n---\nPoint out bugs; never rewrite the code.\n",
  );
  fs.writeFileSync(path.join(ws, ".hearth", "modes", "broken.md"), "no front matter here\n");
  const review = await cli([
    "exec",
    "--mode",
    "reviewer",
    "--model",
    script("review.json", [
      {
        expectTools: ["read_file"],
        expectSystemIncludes: ["# Mode: reviewer\nPoint out bugs; never rewrite the code."],
        text: ["Looks fine."],
      },
    ]),
    "review parse()",
  ]);
  assert.equal(review.code, 0, review.stderr);
  assert.deepEqual(
    offered().map((r) => [r.mode, r.modeSource, r.tools]),
    [["reviewer", ".hearth/modes/reviewer.md", ["read_file"]]],
  );

  const typo = await cli(["exec", "--mode", "reviewr", "--model", script("unused.json", [{ text: ["never"] }]), "review"]);
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(
    typo.stderr,
    /--mode reviewr is not one of this workspace's modes \(code, ask, plan, reviewer\); add it as \.hearth\/modes\/reviewr\.md/,
  );
  assert.match(typo.stderr, /not read: \.hearth\/modes\/broken\.md: it does not begin with a front matter block/);
  const sessions = await cli(["sessions", "--json"]);
  assert.equal(sessions.code, 0, sessions.stderr);
  assert.equal((JSON.parse(sessions.stdout) as { sessions: unknown[] }).sessions.length, 1, "the refused mode created no session");
});

it("a .roomodes imports as .hearth/modes files whose mode then runs with the tools it names; a second import keeps them (issue 27)", async () => {
  const { ws, cli, script, offered } = workspace("modes-roo");
  fs.writeFileSync(
    path.join(ws, ".roomodes"),
    JSON.stringify({ customModes: [{ slug: "qa", name: "QA", roleDefinition: "You test things.", groups: ["read", "command"] }] }),
  );
  const imported = await cli(["modes", "--import-roomodes"]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /wrote \.hearth\/modes\/qa\.md/);
  const listed = JSON.parse((await cli(["modes", "--json"])).stdout) as { modes: { name: string; tools: string[]; source: string }[] };
  assert.deepEqual(listed.modes.at(-1), { name: "qa", description: "QA", tools: ["read", "command"], source: ".hearth/modes/qa.md" });

  const run = await cli([
    "exec",
    "--mode",
    "qa",
    "--model",
    script("qa.json", [
      { expectTools: [...READ_TOOLS, "shell"], expectSystemIncludes: ["# Mode: qa\nYou test things."], text: ["Tested."] },
    ]),
    "test it",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(offered()[0]!.tools.sort(), [...READ_TOOLS, "shell"].sort());

  fs.writeFileSync(path.join(ws, ".hearth", "modes", "qa.md"), "---\ntools: [read]\n---\nMy own edit.\n");
  const again = await cli(["modes", "--import-roomodes"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /no mode written\n {2}note: \.hearth\/modes\/qa\.md: exists already, kept as it is/);
  assert.equal(fs.readFileSync(path.join(ws, ".hearth", "modes", "qa.md"), "utf8"), "---\ntools: [read]\n---\nMy own edit.\n");
});

// Project instructions reach the model (issue 27, item 1 done-when), as a user runs them: a real CLI,
// a real kernel reading the workspace's AGENTS.md and .clinerules through its descriptor, and the
// scripted adapter asserting what it is shown as system instructions. A source turned off with
// `hearth instructions --off` is gone from the next turn; the list says each one's token cost.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { InstructionsInForce } from "../../../shared/protocol/instructions.js";
import type { TaskSummary } from "../../../shared/protocol/tasks.js";
import { isolatedEnv, runCli } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";

it("AGENTS.md and .clinerules reach the model, with their token cost listed; one turned off is gone from the next turn (issue 27)", async () => {
  const root = tempDir("instructions");
  const ws = path.join(root, "ws");
  fs.mkdirSync(path.join(ws, "pkg"), { recursive: true });
  fs.writeFileSync(path.join(ws, "AGENTS.md"), "Run the tests with `npm run check` before you answer.\n");
  fs.writeFileSync(path.join(ws, ".clinerules"), "Never edit files under vendor/.\n");
  fs.writeFileSync(path.join(ws, "pkg", "AGENTS.md"), "This package uses tabs.\n");
  const db = path.join(root, "journal.sqlite");
  const env = { ...isolatedEnv(root), HEARTH_ALLOW_SCRIPTED: "1", HEARTH_PERSONAL_INSTRUCTIONS: "Answer in British English." };
  const cli = (args: string[]) => runCli([...args.slice(0, 1), "--workspace", ws, "--db", db, ...args.slice(1)], env);
  const script = (name: string, round: Record<string, unknown>) => {
    const file = path.join(root, name);
    fs.writeFileSync(file, JSON.stringify({ rounds: [{ ...round, text: ["Done."] }] }));
    return `scripted:${file}`;
  };

  const first = await cli([
    "exec",
    "--model",
    script("both.json", {
      expectSystemIncludes: [
        "## AGENTS.md\nRun the tests with `npm run check` before you answer.",
        "## .clinerules\nNever edit files under vendor/.",
        "## pkg/AGENTS.md (applies to files under pkg/)\nThis package uses tabs.",
        "## The person's own rules\nAnswer in British English.",
      ],
    }),
    "hello",
  ]);
  assert.equal(first.code, 0, first.stderr);

  const listed = await cli(["instructions", "--json"]);
  assert.equal(listed.code, 0, listed.stderr);
  const inForce = JSON.parse(listed.stdout) as InstructionsInForce;
  assert.deepEqual(
    inForce.sources.map((s) => [s.path, s.origin, s.enabled]),
    [
      ["AGENTS.md", "agents", true],
      [".clinerules", "cline", true],
      ["pkg/AGENTS.md", "agents", true],
      ["hearth.instructions.personal", "person", true],
    ],
  );
  for (const s of inForce.sources) assert.ok(s.tokens > 0 && s.shownBytes === s.bytes && s.cut === null, JSON.stringify(s));
  assert.ok(inForce.tokens > inForce.sources.reduce((n, s) => n + s.tokens, 0) - 1, "the total counts every source");

  const off = await cli(["instructions", "--off", ".clinerules"]);
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stdout, /off {2}\.clinerules +turned off/);
  assert.match(off.stdout, /on {3}AGENTS\.md +~\d+ tokens/);

  const second = await cli([
    "exec",
    "--model",
    script("without.json", { expectSystemIncludes: ["Run the tests with `npm run check`"], expectSystemExcludes: ["vendor/"] }),
    "hello again",
  ]);
  assert.equal(second.code, 0, second.stderr);

  const unknown = await cli(["instructions", "--off", "README.md"]);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /"README\.md" is not one of this workspace's instruction sources \(AGENTS\.md, \.clinerules, /);
});

it("a background task is shown the project instructions too (issue 27: a task's run is admitted like a turn)", async () => {
  const root = tempDir("instructions-task");
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, "AGENTS.md"), "Tasks follow the house style.\n");
  const db = path.join(root, "journal.sqlite");
  const env = { ...isolatedEnv(root), HEARTH_ALLOW_SCRIPTED: "1" };
  const file = path.join(root, "task.json");
  fs.writeFileSync(file, JSON.stringify({ rounds: [{ expectSystemIncludes: ["Tasks follow the house style."], text: ["Styled."] }] }));
  const cli = (...args: string[]) => runCli([...args, "--workspace", ws, "--db", db, "--json"], env);
  const started = await cli("task", "start", "--model", `scripted:${file}`, "style it");
  assert.equal(started.code, 0, started.stderr);
  const { task } = JSON.parse(started.stdout) as { task: TaskSummary };
  let shown: { task: TaskSummary; result: string | null } | undefined;
  for (let i = 0; i < 100 && !["completed", "failed", "cancelled"].includes(shown?.task.state ?? ""); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 200));
    shown = JSON.parse((await cli("task", "show", task.taskId)).stdout) as typeof shown;
  }
  assert.equal(shown?.task.state, "completed", JSON.stringify(shown));
  assert.equal(shown?.result, "Styled.");
});

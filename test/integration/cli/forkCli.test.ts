// `hearth fork` as a person meets it in a terminal (issue 29 item 2): real `hearth` processes and a
// real detached kernel over a real journal. The fork prints its new session and the forked message
// (not sent); its first turn is shown exactly the original's history before that message (the
// scripted rounds' `expectUsers`); `hearth sessions` lists it with its origin; a bad point is refused.
// `hearth task start --fork` runs the same message as a background task on the same history.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import path from "node:path";
import { isolatedEnv, runCli, scriptedCliWorkspace, stopKernel } from "../../support/cliProcess.js";

// A round is chosen by the assistant messages already in the history: the fork's first turn, after
// one answer, takes round 2 again, and is refused unless it was shown exactly ["hello", "second"].
const { workspace, journalPath, script, hearth } = scriptedCliWorkspace("fork-cli", [
  { text: ["Hello."], expectUsers: ["hello"] },
  { text: ["Second answer."], expectUsers: ["hello", "second"] },
]);
/** `hearth task SUB ...` on the same workspace, journal and kernel (the subcommand comes first). */
const task = (sub: string, ...args: string[]) =>
  runCli(["task", sub, "--workspace", workspace, "--db", journalPath, ...args], {
    HEARTH_ALLOW_SCRIPTED: "1",
    ...isolatedEnv(path.dirname(journalPath), 30),
  });

after(() => stopKernel(journalPath));

it("hearth fork makes a session with the history before #N, prints the message to send, and the fork's turn sees exactly that history (issue 29 item 2)", async () => {
  const first = await hearth("exec", "--model", `scripted:${script}`, "--json", "hello");
  assert.equal(first.code, 0, first.stderr);
  const sessionId = (JSON.parse(first.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
  const second = await hearth("exec", "--session", sessionId, "second");
  assert.equal(second.code, 0, second.stderr);

  const forked = await hearth("fork", sessionId, "--at", "3");
  assert.equal(forked.code, 0, forked.stderr);
  const forkId = new RegExp(`forked ${sessionId} at #3 into session (\\S+) \\(2 messages of history\\)`).exec(forked.stdout)?.[1];
  assert.ok(forkId, forked.stdout);
  assert.match(forked.stdout, /message #3, not sent:\n {2}second\n/);

  const turn = await hearth("exec", "--session", forkId, "second");
  assert.equal(turn.code, 0, `the fork's turn was shown another history: ${turn.stderr}`);
  assert.match(turn.stdout, /Second answer\./);

  const listed = await hearth("sessions");
  assert.match(listed.stdout, new RegExp(`${forkId} .* hello \\(fork\\) .*\\(forked from hello at #3\\)`), listed.stdout);

  const refused = await hearth("fork", sessionId, "--at", "2");
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /message #2 is an assistant message; a fork starts at a user message/);
  const usage = await hearth("fork", sessionId);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /give the user message to fork at as --at N/);
  forkedSessionId = sessionId;
});

let forkedSessionId = "";

it("hearth task start --fork runs message #N in the background on the history before it, on the chat's model; the chat is left as it was (issue 29 item 2)", async () => {
  const before = await hearth("show", forkedSessionId);
  const out = await task("start", "--fork", forkedSessionId, "--at", "3", "--json");
  assert.equal(out.code, 0, out.stderr);
  const forkedTask = (JSON.parse(out.stdout) as { task: { taskId: string; title: string; model: string } }).task;
  assert.equal(forkedTask.title, "second", "titled by the forked message");
  assert.match(forkedTask.model, /^scripted:/, "on the chat's model, with no --model or HEARTH_MODEL");

  // The script refuses the task's round unless it was shown exactly ["hello", "second"].
  let shown: { task: { state: string; reason: string | null }; result: string | null } | undefined;
  for (let i = 0; i < 100 && !["completed", "failed", "cancelled"].includes(shown?.task.state ?? ""); i++) {
    await new Promise((r) => setTimeout(r, 200));
    shown = JSON.parse((await task("show", forkedTask.taskId, "--json")).stdout);
  }
  assert.equal(shown?.task.state, "completed", `the task was shown another history: ${shown?.task.reason}`);
  assert.equal(shown?.result, "Second answer.");
  assert.equal((await hearth("show", forkedSessionId)).stdout, before.stdout, "the chat is left as it was");

  const usage = await task("start", "--fork", forkedSessionId);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /needs both --fork SESSION_ID and --at N/);
  const refused = await task("start", "--fork", forkedSessionId, "--at", "2");
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /message #2 is an assistant message; a fork starts at a user message/);
});

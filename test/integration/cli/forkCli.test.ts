// `hearth fork` as a person meets it in a terminal (issue 29 item 2): real `hearth` processes and a
// real detached kernel over a real journal. The fork prints its new session and the forked message
// (not sent); its first turn is shown exactly the original's history before that message (the
// scripted rounds' `expectUsers`); `hearth sessions` lists it with its origin; a bad point is refused.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { scriptedCliWorkspace, stopKernel } from "../../support/cliProcess.js";

// A round is chosen by the assistant messages already in the history: the fork's first turn, after
// one answer, takes round 2 again, and is refused unless it was shown exactly ["hello", "second"].
const { journalPath, script, hearth } = scriptedCliWorkspace("fork-cli", [
  { text: ["Hello."], expectUsers: ["hello"] },
  { text: ["Second answer."], expectUsers: ["hello", "second"] },
]);

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
});

// `hearth exec` and `hearth show` as a user runs them: real CLI processes, a real kernel, a real
// journal (issue 4 done-when; harness #6, #8).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";

function hearth(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [path.join(DIST, "cli.mjs"), ...args], {
    // The CLI leaves its detached kernel running for other clients; a short idle period ends it.
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HEARTH_KERNEL_IDLE_SECONDS: "2", ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function setup(rounds: unknown[]) {
  const root = tempDir("cli");
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, "todo.txt"), "buy milk\n");
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  return { ws, db: path.join(root, "journal.sqlite"), model: `scripted:${script}` };
}

const ROUNDS = [
  { text: ["Reading."], toolCalls: [{ name: "read_file", arguments: { path: "todo.txt" } }] },
  {
    text: ["Adding eggs."],
    toolCalls: [{ name: "edit_file", arguments: { path: "todo.txt", oldText: "buy milk\n", newText: "buy milk\nbuy eggs\n" } }],
  },
  { text: ["Done."] },
];

it("hearth exec runs a multi-round turn with tool calls, and hearth show prints complete batches (issue 4)", () => {
  const { ws, db, model } = setup(ROUNDS);
  const run = hearth(["exec", "--workspace", ws, "--db", db, "--model", model, "--approve", "all", "--json", "add eggs to my list"], {
    HEARTH_ALLOW_SCRIPTED: "1",
  });
  assert.equal(run.code, 0, run.stderr);
  const events = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { sessionId: string; event: { type: string } });
  assert.deepEqual(events.filter((e) => e.event.type === "tool_call").length, 2);
  assert.equal(events.at(-1)!.event.type, "completed");
  assert.equal(fs.readFileSync(path.join(ws, "todo.txt"), "utf8"), "buy milk\nbuy eggs\n");

  const sessionId = events[0]!.sessionId;
  const show = hearth(["show", "--workspace", ws, "--db", db, "--json", sessionId]);
  assert.equal(show.code, 0, show.stderr);
  const history = JSON.parse(show.stdout) as { messages: HistoryMessage[]; runs: { ledger: { status: string }[] }[] };
  assert.deepEqual(
    history.messages.map((m) => m.role),
    ["user", "assistant", "tool", "assistant", "tool", "assistant"],
  );
  assertCompleteBatches(history.messages);
  assert.deepEqual(
    history.runs[0]!.ledger.map((l) => l.status),
    ["succeeded", "succeeded"],
  );
  const human = hearth(["show", "--workspace", ws, "--db", db, sessionId]);
  assert.match(human.stdout, /edit_file .*succeeded/);
});

it("without a terminal the default approval policy denies: the edit is refused and nothing changes (harness #8)", () => {
  const { ws, db, model } = setup(ROUNDS);
  const run = hearth(["exec", "--workspace", ws, "--db", db, "--model", model, "add eggs"], { HEARTH_ALLOW_SCRIPTED: "1" });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /✗ edit_file: .*denied/);
  assert.equal(fs.readFileSync(path.join(ws, "todo.txt"), "utf8"), "buy milk\n");
});

it("the web fetch setting offers web_fetch: the kernel starts with it and each fetch asks first, denied with nobody to ask (harness #11)", () => {
  // The editor's hearth.tools.webFetch puts web_fetch in HEARTH_TOOLS and sets HEARTH_WEB_FETCH=1; the
  // kernel used to build no network tool, so that tool policy named a tool it lacked and it refused to start.
  const { ws, db, model } = setup([{ toolCalls: [{ name: "web_fetch", arguments: { url: "http://127.0.0.1:9/" } }] }, { text: ["Done."] }]);
  const env = { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_TOOLS: "read_file,web_fetch", HEARTH_WEB_FETCH: "1" };
  const run = hearth(["exec", "--workspace", ws, "--db", db, "--model", model, "fetch it"], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /✗ web_fetch: .*denied/);
  // A folder of its own: the CLI would join the first kernel, still running for its idle time.
  const other = setup([{ text: ["Done."] }]);
  const without = hearth(["exec", "--workspace", other.ws, "--db", other.db, "--model", other.model, "x"], {
    ...env,
    HEARTH_WEB_FETCH: "",
  });
  assert.equal(without.code, 4, "without the opt-in the kernel has no web_fetch, and a policy naming it is refused");
  assert.match(without.stderr, /web_fetch is not a tool of this kernel/);
});

it("bad command lines and a scripted model without the opt-in fail with clear messages and documented exit codes", () => {
  const { ws, db, model } = setup(ROUNDS);
  const noPrompt = hearth(["exec", "--workspace", ws, "--db", db, "--model", model]);
  assert.equal(noPrompt.code, 2);
  assert.match(noPrompt.stderr, /missing PROMPT/);
  const badPolicy = hearth(["exec", "--approve", "sometimes", "--model", model, "x"]);
  assert.equal(badPolicy.code, 2);
  assert.match(badPolicy.stderr, /--approve sometimes is not one of never, reads, all/);
  const noOptIn = hearth(["exec", "--workspace", ws, "--db", db, "--model", model, "x"], { HEARTH_ALLOW_SCRIPTED: "" });
  assert.equal(noOptIn.code, 1);
  assert.match(noOptIn.stderr, /HEARTH_ALLOW_SCRIPTED=1/);
  const journalInside = hearth(["sessions", "--workspace", ws, "--db", path.join(ws, "j.sqlite")]);
  assert.equal(journalInside.code, 4, "a kernel that refuses to start is exit code 4");
  assert.match(journalInside.stderr, /lies inside the workspace.*Pass --db with a path outside/);
});

it("hearth exec --session ID --model SPEC never ignores --model: another model is refused with what to do, the session's own model continues it (issue 23, item 5)", () => {
  const { ws, db, model } = setup([{ text: ["First."] }, { text: ["Second."] }]);
  const env = { HEARTH_ALLOW_SCRIPTED: "1" };
  const first = hearth(["exec", "--workspace", ws, "--db", db, "--model", model, "--json", "one"], env);
  assert.equal(first.code, 0, first.stderr);
  const { sessionId } = JSON.parse(first.stdout.split("\n")[0]!) as { sessionId: string };
  const other = `${model}.other.json`;
  const refused = hearth(["exec", "--workspace", ws, "--db", db, "--session", sessionId, "--model", other, "two"], env);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /refused --model .*other\.json with --session .*: the session keeps the model it was created with \(scripted:.*script\.json\); a different model is a new session\. To continue this session, drop --model; to use that model, drop --session/,
  );
  const history = JSON.parse(hearth(["show", "--workspace", ws, "--db", db, "--json", sessionId]).stdout) as { runs: unknown[] };
  assert.equal(history.runs.length, 1, "the refused command started no turn");
  const same = hearth(["exec", "--workspace", ws, "--db", db, "--session", sessionId, "--model", model, "two"], env);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /Second\./);
});

// Clients are principals (issue 24) as a person meets them in a terminal: real `hearth` processes,
// real detached kernels, real journals. An `exec --approve all` beside a waiting task answers nothing
// of the task's; a client of another folder is refused; links to a live journal meet its owner; an
// erased chat's and task's words are gone from every file under Hearth's home.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { RequestResult, TaskSummary } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { isolatedEnv, runCli, stopKernel } from "../../support/cliProcess.js";

function setup(prefix: string, rounds: unknown[]) {
  const root = tempDir(prefix);
  fs.mkdirSync(path.join(root, "ws"));
  const workspace = fs.realpathSync(path.join(root, "ws"));
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  const env = { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root, 30) };
  const journalPath = path.join(root, "journal.sqlite");
  const hearth = (args: string[], extra: Record<string, string> = {}) =>
    runCli(
      [
        ...args.slice(0, 1),
        ...(args[0] === "task" ? [args[1]!] : []),
        "--workspace",
        workspace,
        "--db",
        journalPath,
        ...args.slice(args[0] === "task" ? 2 : 1),
      ],
      {
        ...env,
        ...extra,
      },
    );
  return { root, workspace, model: `scripted:${script}`, journalPath, env, hearth };
}

async function untilTask(hearth: ReturnType<typeof setup>["hearth"], id: string, state: TaskSummary["state"]): Promise<TaskSummary> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await hearth(["task", "show", "--json", id]);
    assert.equal(r.code, 0, r.stderr);
    const { task } = JSON.parse(r.stdout) as { task: TaskSummary };
    if (task.state === state) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} is ${task.state}, not ${state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it("an `exec --approve all` beside a task waiting for approval answers none of the task's calls: the task waits, nothing is written; `hearth task approve` runs it and `hearth show` says who decided (issue 24, item 1)", async () => {
  const t = setup("exec-beside-task", [
    { text: ["Writing."], toolCalls: [{ name: "shell", arguments: { command: "echo pwned > pwned.txt" } }] },
    { text: ["Done."] },
    { text: ["Hello back."] },
  ]);
  try {
    // A chat whose history has two answers already: its next turn is the script's third round (no tools).
    const first = await t.hearth(["exec", "--model", t.model, "--approve", "never", "--json", "first"]);
    assert.equal(first.code, 0, first.stderr);
    const sessionId = (JSON.parse(first.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
    assert.equal(fs.existsSync(path.join(t.workspace, "pwned.txt")), false);

    const started = await t.hearth(["task", "start", "--model", t.model, "--json", "write pwned"]);
    assert.equal(started.code, 0, started.stderr);
    const { task } = JSON.parse(started.stdout) as { task: TaskSummary };
    await untilTask(t.hearth, task.taskId, "waiting_approval");

    const hello = await t.hearth(["exec", "--session", sessionId, "--approve", "all", "--json", "hello"]);
    assert.equal(hello.code, 0, hello.stderr);
    assert.equal((await untilTask(t.hearth, task.taskId, "waiting_approval")).state, "waiting_approval", "the task still waits");
    assert.equal(fs.existsSync(path.join(t.workspace, "pwned.txt")), false, "the unrelated exec's policy answered nothing of the task's");

    const approved = await t.hearth(["task", "approve", task.taskId]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /approved call .* of task/);
    await untilTask(t.hearth, task.taskId, "completed");
    assert.equal(fs.readFileSync(path.join(t.workspace, "pwned.txt"), "utf8"), "pwned\n");

    const shown = await t.hearth(["show", task.sessionId]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /approved shell call \S+ by terminal \S+ \(terminal\) at \S+: approved at the terminal \(hearth task approve\)/,
    );
    assert.match(shown.stdout, /started by task/);
    const chat = JSON.parse((await t.hearth(["show", "--json", sessionId])).stdout) as RequestResult<"session/history">;
    assert.deepEqual(
      chat.decisions?.map((d) => [d.tool, d.decision, d.decidedBy.kind, d.surface]),
      [["shell", "deny", "terminal", "policy"]],
      "the first exec's own denial is journaled as its policy's",
    );
  } finally {
    await stopKernel(t.journalPath);
  }
});

it("a kernel serves one folder: a client of folder B on A's journal is refused and nothing is written in B; a session runs only in the folder its profile names (issue 24, item 3)", async () => {
  const t = setup("folders", [
    { text: ["Writing."], toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "hi\n" } }] },
    { text: ["Done."] },
  ]);
  const other = path.join(t.root, "other");
  fs.mkdirSync(other);
  try {
    const a = await t.hearth(["exec", "--model", t.model, "--approve", "never", "--json", "in A"]);
    assert.equal(a.code, 0, a.stderr);
    const sessionA = (JSON.parse(a.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
    const intoB = await runCli(
      ["exec", "--workspace", other, "--db", t.journalPath, "--model", t.model, "--approve", "all", "write"],
      t.env,
    );
    assert.equal(intoB.code, 4, intoB.stderr);
    assert.match(intoB.stderr, /refused: this kernel serves the folder .*ws .*, not .*other; a kernel works in one folder only/);
    assert.deepEqual(fs.readdirSync(other), [], "nothing was written in B");
    await stopKernel(t.journalPath);

    // A kernel started for B on A's journal refuses to run A's session in B.
    const inB = await runCli(
      ["exec", "--workspace", other, "--db", t.journalPath, "--session", sessionA, "--approve", "all", "again"],
      t.env,
    );
    assert.equal(inB.code, 1, inB.stderr);
    assert.match(inB.stderr, /refused: session \S+ works in the folder .*ws, and this kernel serves .*other/);
    assert.deepEqual(fs.readdirSync(other), [], "nothing was written in B");
  } finally {
    await stopKernel(t.journalPath);
  }
});

it("a hard link and a symlink to a live journal both meet its running owner, never a second kernel (issue 24, item 6)", async () => {
  const t = setup("links", [{ text: ["Hi."] }]);
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await k.client.initialize("test", "0", { client: { kind: "window", folder: t.workspace, asksPerson: true } });
    for (const [kind, alias] of [
      ["hard link", path.join(t.root, "alias.sqlite")],
      ["symlink", path.join(t.root, "sym.sqlite")],
    ] as const) {
      if (kind === "hard link") fs.linkSync(t.journalPath, alias);
      else fs.symlinkSync(t.journalPath, alias);
      const r = await runCli(["sessions", "--workspace", t.workspace, "--db", alias], { ...t.env, HEARTH_DEBUG: "1" });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`joined kernel pid ${k.child.pid} `), `the ${kind} met the running owner`);
    }
  } finally {
    await k.stop();
  }
});

it("erase erases: after `hearth erase` and a stop, the erased chat's and task's words are in no file under Hearth's home, nor the journal or its WAL (issue 24, item 7)", async () => {
  const secret = "zebra-lantern-7731";
  const t = setup("erase", [{ text: [`The ${secret} answer.`] }]);
  try {
    const chat = await t.hearth(["exec", "--model", t.model, "--json", `tell me about ${secret}`]);
    assert.equal(chat.code, 0, chat.stderr);
    const sessionId = (JSON.parse(chat.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
    const started = await t.hearth(["task", "start", "--model", t.model, "--title", `title ${secret}`, "--json", `instruction ${secret}`]);
    assert.equal(started.code, 0, started.stderr);
    const { task } = JSON.parse(started.stdout) as { task: TaskSummary };
    await untilTask(t.hearth, task.taskId, "completed");
    for (const id of [sessionId, task.sessionId]) {
      const erased = await t.hearth(["erase", "--yes", id]);
      assert.equal(erased.code, 0, erased.stderr);
    }
    const listed = await t.hearth(["tasks", "--json"]);
    assert.doesNotMatch(listed.stdout, new RegExp(secret), "task/list keeps no erased title or instruction");
    await stopKernel(t.journalPath);
    const files = [t.journalPath, `${t.journalPath}-wal`, ...walk(t.env.HEARTH_HOME)].filter((f) => fs.existsSync(f));
    assert.ok(files.includes(t.journalPath));
    for (const f of files) assert.equal(fs.readFileSync(f).includes(secret), false, `${f} still holds the erased words`);
  } finally {
    await stopKernel(t.journalPath);
  }
});

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.isFile() ? [p] : [];
  });
}

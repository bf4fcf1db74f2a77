// The extension's kernel supervisor against real kernel processes (built dist/): it joins the
// folder's shared kernel or starts one detached (issue 12, item 2), reconnects with backoff after a
// crash to a new kernel that reconciles, restarts on request, and leaves the kernel running when
// the window goes.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Backoff } from "../../../extension/kernel/backoff.js";
import { KernelSupervisor, type KernelState } from "../../../extension/kernel/kernelSupervisor.js";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import { defaultJournalPath, journalLockPath } from "../../../shared/node/paths.js";
import { HEARTH_VERSION } from "../../../shared/version.js";
import { alive, isolatedEnv, runCli } from "../../support/cliProcess.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";

const WINDOW_TOOLS = "read_file,list_dir,search_files,write_file,edit_file,shell";

function harness(opts: { nodePathSetting?: string; missingWorkspace?: boolean; env?: Record<string, string> } = {}) {
  const root = tempDir("supervisor");
  const workspace = path.join(root, "ws");
  if (!opts.missingWorkspace) fs.mkdirSync(workspace);
  // The window's environment, as kernelEnv gives it: an explicit tool list, a private HEARTH_HOME.
  const env = { ...isolatedEnv(root, 5), HEARTH_TOOLS: WINDOW_TOOLS, ...opts.env };
  const lines: string[] = [];
  const states: KernelState["kind"][] = [];
  const log = {
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
  };
  const supervisor = new KernelSupervisor({
    clientVersion: "test",
    log,
    backoff: new Backoff({ initialMs: 50, factor: 2, maxMs: 400, healthyMs: 60_000 }),
    env: () => env,
    connect: (kernelEnv, onSpawn) =>
      connectOrStartKernel({ distDir: DIST, workspace, env: kernelEnv, nodePathSetting: opts.nodePathSetting, onSpawn }),
  });
  supervisor.onState((s) => states.push(s.kind));
  return { supervisor, lines, states, workspace, env, root, journalPath: defaultJournalPath(workspace, env) };
}

/**
 * Starts the folder's kernel from a terminal, as a person's `hearth sessions` does, with `env` over the
 * window's; it stays up for its idle period (60 s) after the command.
 */
async function startTerminalKernel(h: ReturnType<typeof harness>, env: Record<string, string>): Promise<void> {
  const cli = await runCli(["sessions", "--workspace", h.workspace, "--json"], { ...h.env, ...env, HEARTH_KERNEL_IDLE_SECONDS: "60" });
  assert.equal(cli.code, 0, cli.stderr);
}

// A call, so that TypeScript does not keep a narrowing from an earlier assertion on the getter.
function stateOf(supervisor: KernelSupervisor): KernelState {
  return supervisor.state;
}

function until(supervisor: KernelSupervisor, kind: KernelState["kind"], timeoutMs = 20_000): Promise<KernelState> {
  if (supervisor.state.kind === kind) return Promise.resolve(supervisor.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kernel state never became ${kind}; it is ${supervisor.state.kind}`)), timeoutMs);
    const sub = supervisor.onState((s) => {
      if (s.kind !== kind) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(s);
    });
  });
}

describe("kernel supervisor (extension side) with real kernels", () => {
  const toDispose: KernelSupervisor[] = [];
  const pids = new Set<number>();
  after(async () => {
    for (const s of toDispose) await s.dispose();
    // Detached kernels outlive their clients by design; the tests' own are stopped here.
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  });
  const track = (s: KernelSupervisor) => {
    toDispose.push(s);
    s.onState((state) => {
      if (state.kind === "ready") pids.add(state.info.kernelPid);
    });
  };

  it("starts nothing until first use, then starts one detached kernel that answers initialize with the package version (issue 2: lazy start; issue 12)", async () => {
    const h = harness();
    track(h.supervisor);
    assert.equal(h.supervisor.state.kind, "idle");
    assert.equal(h.supervisor.pid, undefined);
    await h.supervisor.ensureStarted();
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready", `ready after first use, not ${state.kind}`);
    assert.equal(state.info.kernelVersion, HEARTH_VERSION);
    assert.equal(state.info.workspaceRoot, fs.realpathSync(h.workspace));
    assert.equal(state.joined, false);
    assert.deepEqual(state.differences, []);
    assert.equal(
      Number(fs.readFileSync(journalLockPath(h.journalPath), "utf8")),
      h.supervisor.pid,
      "the started kernel owns the folder's journal",
    );
    assert.equal(await h.supervisor.ensureStarted(), await h.supervisor.ensureStarted(), "one connection, not one per use");
    assert.match(
      h.lines.join("\n"),
      /info kernel starting: pid \d+, Node v[\d.]+ \(ABI \d+\) at \S+ \(from (build|path)\); detached[\s\S]*info started kernel pid \d+\ninfo kernel \S+ ready in \d+ ms/,
    );
  });

  it("joins the kernel a `hearth` command started instead of being refused, and says which of its settings are not this window's (issue 12, item 2)", async () => {
    const h = harness();
    track(h.supervisor);
    // The terminal's kernel: other tools, no API key; it stays up for its idle period after the command.
    await startTerminalKernel(h, { HEARTH_TOOLS: "read_file,list_dir" });
    const cliKernel = Number(fs.readFileSync(journalLockPath(h.journalPath), "utf8"));
    pids.add(cliKernel);
    assert.ok(alive(cliKernel));
    await h.supervisor.ensureStarted();
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready", `ready, not ${state.kind}`);
    assert.equal(state.info.kernelPid, cliKernel, "the window joined the terminal's kernel");
    assert.equal(state.joined, true);
    assert.deepEqual(state.differences, [
      "tools: this client's settings offer search_files, write_file, edit_file, shell, which the kernel does not",
    ]);
    const log = h.lines.join("\n");
    assert.match(log, new RegExp(`info joined kernel pid ${cliKernel}\\n`));
    assert.doesNotMatch(log, /kernel starting/, "nothing was started");
    assert.match(
      log,
      new RegExp(`warn the kernel \\(pid ${cliKernel}\\) was started with other settings than this window's: tools: .*Restart it`),
    );
    const sessions = await (await h.supervisor.ensureStarted()).request("session/list", {});
    assert.equal(sessions.sessions.length, 0, "the shared journal answers through the joined kernel");

    // Restart: the terminal's kernel shuts down and one with this window's settings replaces it.
    await h.supervisor.restart();
    const restarted = stateOf(h.supervisor);
    assert.ok(restarted.kind === "ready");
    assert.notEqual(restarted.info.kernelPid, cliKernel);
    assert.equal(alive(cliKernel), false, "the old kernel is gone");
    assert.equal(restarted.joined, false);
    assert.deepEqual(restarted.differences, []);
    assert.deepEqual(restarted.info.capabilities.tools.sort(), WINDOW_TOOLS.split(",").sort());
    assert.match(h.lines.join("\n"), /restart requested[\s\S]*kernel \(pid \d+\) stopped[\s\S]*kernel starting[\s\S]*started kernel pid/);
  });

  it("six quick tool-setting changes end in one kernel on the last settings, never one left on an older tool list (issue 25, item 1)", async () => {
    const h = harness();
    track(h.supervisor);
    await h.supervisor.ensureStarted();
    const firstPid = h.supervisor.pid!;
    // The settings editor removes one entry at a time; each change asks for a restart (main.ts).
    const lists = WINDOW_TOOLS.split(",").map((_, i, all) => all.slice(0, all.length - 1 - i).join(",") || "none");
    const restarts: Promise<unknown>[] = [];
    for (const list of lists) {
      h.env.HEARTH_TOOLS = list;
      restarts.push(h.supervisor.restart());
      await new Promise((r) => setTimeout(r, 20));
    }
    // One more change while that restart is under way: it is applied after it, not raced with it.
    await until(h.supervisor, "starting");
    h.env.HEARTH_TOOLS = "read_file";
    restarts.push(h.supervisor.restart());
    const outcomes = await Promise.allSettled(restarts);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      restarts.map(() => "fulfilled"),
      `every restart answered: ${outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "ok")).join("; ")}`,
    );
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready", `ready, not ${state.kind}`);
    assert.deepEqual(state.info.capabilities.tools, ["read_file"], "the kernel runs the last settings");
    assert.deepEqual(state.differences, []);
    const log = h.lines.join("\n");
    const started = [...log.matchAll(/kernel starting: pid (\d+)/g)].map((m) => Number(m[1]));
    for (const pid of started) pids.add(pid);
    assert.equal(started.length, 3, `the first start, one restart for the burst, one for the late change:\n${log}`);
    assert.deepEqual(
      started.filter((pid) => alive(pid)),
      [h.supervisor.pid],
      "one kernel is left running, the last started",
    );
    assert.ok(!started.slice(1).includes(firstPid));
    assert.doesNotMatch(log, /journal is owned|did not start/);
  });

  it("a window whose reads need approval joins a kernel started without: its runs' reads ask, and the view says so (issue 22, item 2; issue 24, item 8)", async () => {
    const h = harness({ env: { HEARTH_APPROVE_READS: "1" } });
    track(h.supervisor);
    await startTerminalKernel(h, { HEARTH_APPROVE_READS: "" });
    await h.supervisor.ensureStarted();
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready" && state.joined);
    assert.deepEqual(state.info.narrowed, [
      "reads: this client's reads, listings and searches ask first (the kernel was started without HEARTH_APPROVE_READS)",
    ]);
    assert.deepEqual(state.differences, state.info.narrowed);
  });

  it("a different API key in the joined kernel is reported without its value (issue 12: never silently another window's settings)", async () => {
    const h = harness({ env: { HEARTH_OPENAI_API_KEY: "sk-window-key" } });
    track(h.supervisor);
    await startTerminalKernel(h, { HEARTH_OPENAI_API_KEY: "sk-terminal-key" });
    await h.supervisor.ensureStarted();
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready");
    assert.deepEqual(state.differences, ["API key: the kernel has a different one"]);
    assert.doesNotMatch(JSON.stringify(state.info) + h.lines.join("\n"), /sk-(window|terminal)-key/, "no key in initialize or the log");
  });

  it("a kernel killed with SIGKILL mid-turn: the supervisor starts a new one with growing delays, which reconciles the interrupted run (issue 12; control plane #21)", async () => {
    const h = harness({ env: { HEARTH_ALLOW_SCRIPTED: "1" } });
    track(h.supervisor);
    const script = path.join(h.root, "slow.json");
    fs.writeFileSync(script, JSON.stringify({ rounds: [{ text: ["slow ", "answer ", "that ", "never ", "ends"], delayMs: 1000 }] }));
    const client = await h.supervisor.ensureStarted();
    const { sessionId } = await client.request("session/create", { model: `scripted:${script}`, title: "crash" });
    const { turnId } = await client.request("turn/start", { sessionId, message: "go" });
    const delays: number[] = [];
    for (let crash = 0; crash < 2; crash++) {
      const pid = h.supervisor.pid!;
      const restarting = until(h.supervisor, "restarting");
      process.kill(pid, "SIGKILL");
      const state = await restarting;
      delays.push(state.kind === "restarting" ? state.delayMs : -1);
      await until(h.supervisor, "ready");
      assert.notEqual(h.supervisor.pid, pid, "a new kernel process serves after the crash");
    }
    assert.deepEqual(delays, [50, 100]);
    assert.match(h.lines.join("\n"), /warn the kernel \(pid \d+\) exited unexpectedly after [\d.]+ s; restarting in 0\.1 s/);
    const history = await (await h.supervisor.ensureStarted()).request("session/history", { sessionId });
    const run = history.runs.find((r) => r.turnId === turnId);
    assert.equal(run?.status, "failed", "the new kernel reconciled the run the killed one was running");
  });

  it("closing the window only disconnects: the kernel stays up for other clients (issue 12, item 2)", async () => {
    const h = harness();
    await h.supervisor.ensureStarted();
    const pid = h.supervisor.pid!;
    pids.add(pid);
    await h.supervisor.dispose();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(alive(pid), "the kernel outlives the window");
    assert.match(h.lines.join("\n"), new RegExp(`disconnected from the kernel \\(pid ${pid}\\); it goes on`));
    // The same folder's journal: a reloaded window (a new supervisor) joins it.
    const reloaded = new KernelSupervisor({
      clientVersion: "test",
      log: { info: () => {}, warn: () => {}, error: () => {} },
      env: () => h.env,
      connect: (kernelEnv, onSpawn) => connectOrStartKernel({ distDir: DIST, workspace: h.workspace, env: kernelEnv, onSpawn }),
    });
    track(reloaded);
    await reloaded.ensureStarted();
    assert.equal(reloaded.pid, pid, "the reloaded window joined the same kernel");
  });

  it("a kernel that dies before serving is reported with its own last words, then retried with backoff (issue 2)", async () => {
    const h = harness({ missingWorkspace: true });
    track(h.supervisor);
    await assert.rejects(
      h.supervisor.ensureStarted(),
      /did not start: the kernel exited \(code [1-9]\d*\) before it served clients: .*--workspace .*ws/,
    );
    assert.equal(h.supervisor.state.kind, "restarting");
  });

  it("refuses with the runtime's name when no Node fits, and does not retry in a loop (issue 2: runtime resolution)", async () => {
    const h = harness({ nodePathSetting: "/nonexistent/node" });
    track(h.supervisor);
    await assert.rejects(h.supervisor.ensureStarted(), /cannot start: .*\/nonexistent\/node.*hearth\.kernel\.nodePath/);
    assert.equal(h.supervisor.state.kind, "failed");
    assert.deepEqual(h.states, ["starting", "failed"]);
    assert.match(h.lines.join("\n"), /error The Hearth kernel cannot start: .*setting \/nonexistent\/node: cannot run/);
  });
});

// Runs the built `hearth` CLI as a real child process, without blocking the test's event loop (a
// kernel the test drives must keep being served while the CLI runs).
import { spawn, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DIST, tempDir } from "./kernelProcess.js";

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A private HEARTH_HOME for one test and a short idle period, so detached kernels it starts go away. */
export function isolatedEnv(root: string, idleSeconds = 2): Record<string, string> & { HEARTH_HOME: string } {
  return { HEARTH_HOME: path.join(root, "home"), HEARTH_KERNEL_IDLE_SECONDS: String(idleSeconds), XDG_RUNTIME_DIR: "" };
}

/**
 * A fresh root with a workspace (its real path), a journal's path, a scripted model of these rounds
 * and the environment a kernel on them needs (scripted models allowed, HEARTH_HOME isolated, 5 s idle).
 */
export function scriptedKernelSetup(prefix: string, rounds: unknown[], extraEnv: Record<string, string> = {}) {
  const root = tempDir(prefix);
  fs.mkdirSync(path.join(root, "ws"));
  const workspace = fs.realpathSync(path.join(root, "ws"));
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  const env = { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root, 5), ...extraEnv };
  return { root, workspace, model: `scripted:${script}`, journalPath: path.join(root, "journal.sqlite"), env };
}

/**
 * A workspace, a journal and a scripted model's rounds under a fresh temporary root, and `hearth` run
 * on them (the command, then its arguments); its detached kernel stays up 30 s between calls.
 */
export function scriptedCliWorkspace(prefix: string, rounds: unknown[]) {
  const root = tempDir(prefix);
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const journalPath = path.join(root, "journal.sqlite");
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  const hearth = (command: string, ...args: string[]) =>
    runCli([command, "--workspace", workspace, "--db", journalPath, ...args], { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root, 30) });
  return { workspace, journalPath, script, hearth };
}

export function startCli(args: string[], env: Record<string, string>, extra: SpawnOptions = {}) {
  const child = spawn(process.execPath, [path.join(DIST, "cli.mjs"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
    ...extra,
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => {
    stdout += c;
  });
  child.stderr!.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const result = new Promise<CliResult>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, result };
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return startCli(args, env).result;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops the detached kernel of the journal (its pid is in the lock file) and waits for it to exit. */
export async function stopKernel(journalPath: string): Promise<void> {
  // No lock file: the kernel has already exited (an idle kernel removes it).
  if (!fs.existsSync(`${journalPath}.lock`)) return;
  const pid = Number(fs.readFileSync(`${journalPath}.lock`, "utf8"));
  if (pid > 0 && alive(pid)) {
    process.kill(pid, "SIGTERM");
    await waitFor(() => !alive(pid), "the kernel to stop", 30_000);
  }
}

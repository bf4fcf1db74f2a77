// Starts kernel processes and connects to them. The one launcher both clients use (the extension
// and the `hearth` CLI), so the kernel boundary is the same for both: `connectOrStartKernel` joins
// the kernel that owns a folder's journal, or starts one detached (issue 12, item 2);
// `launchKernel` starts one attached over stdio (tests, and a client that wants a private kernel).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createMessageConnection, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { frameReader } from "./frameReader.js";
import { KernelClient } from "./kernelClient.js";
import { connectKernelSocket, KERNEL_EXIT_JOURNAL_OWNED, NoKernelListening, type SocketKernel } from "./kernelSocket.js";
import { defaultJournalPath, kernelEndpoint, kernelRuntimeDir } from "./paths.js";
import { checkPrivateFileIfPresent, ensurePrivateDir, PRIVATE_FILE_MODE } from "./privateFiles.js";
import { readBuildInfo, resolveRuntime, type RuntimeProbe } from "./runtime.js";

export interface LaunchOptions {
  /** Folder holding sidecar.mjs and build-info.json. */
  distDir: string;
  workspace: string;
  journalPath?: string;
  model?: string;
  nodePathSetting?: string;
  env?: NodeJS.ProcessEnv;
  onStderr?: (line: string) => void;
}

/** A detached kernel connectOrStartKernel spawned, told before it waits for its socket. */
export interface SpawnedKernel {
  pid: number | undefined;
  runtime: RuntimeProbe;
  logPath: string;
}

export interface LaunchedKernel {
  client: KernelClient;
  child: ChildProcess;
  runtime: RuntimeProbe;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function kernelArgs(opts: LaunchOptions): string[] {
  const args = [path.join(opts.distDir, "sidecar.mjs"), "--workspace", opts.workspace];
  if (opts.journalPath) args.push("--db", opts.journalPath);
  if (opts.model) args.push("--model", opts.model);
  return args;
}

function kernelEnv(opts: LaunchOptions): NodeJS.ProcessEnv {
  // One libuv worker: measured 0.78x → 0.97x of llama.cpp's decode speed (llama probe).
  return { ...process.env, ...opts.env, UV_THREADPOOL_SIZE: "1", NODE_OPTIONS: "" };
}

export function launchKernel(opts: LaunchOptions): LaunchedKernel {
  const runtime = resolveRuntime(readBuildInfo(opts.distDir), opts.nodePathSetting, opts.distDir);
  const child = spawn(runtime.nodePath, kernelArgs(opts), { stdio: ["pipe", "pipe", "pipe"], env: kernelEnv(opts) });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: null, signal: null }));
  });
  let pending = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) opts.onStderr?.(line);
  });
  const connection = createMessageConnection(frameReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  return { client: new KernelClient(connection), child, runtime, exited };
}

export interface SharedKernel extends SocketKernel {
  journalPath: string;
  /** True when this call started the kernel; false when it joined a running one. */
  started: boolean;
}

/** How long a client waits for a kernel it started to serve its socket. */
const START_TIMEOUT_MS = 30_000;

/**
 * Connects to the kernel that owns the workspace's journal, or starts one detached (its own
 * session and process group: a terminal's Ctrl+C never reaches it, issue 11 item 16) and connects
 * to it. Two clients starting at once race for the journal's lock; the loser exits and both
 * connect to the winner.
 */
export async function connectOrStartKernel(
  opts: LaunchOptions & { startTimeoutMs?: number; onSpawn?: (spawned: SpawnedKernel) => void },
): Promise<SharedKernel> {
  const env = { ...process.env, ...opts.env };
  const journalPath = path.resolve(opts.journalPath ?? defaultJournalPath(opts.workspace, env));
  const endpoint = kernelEndpoint(journalPath, env);
  try {
    return { ...(await connectKernelSocket(endpoint)), journalPath, started: false };
  } catch (e) {
    if (!(e instanceof NoKernelListening)) throw e;
  }
  const runtime = resolveRuntime(readBuildInfo(opts.distDir), opts.nodePathSetting, opts.distDir);
  ensurePrivateDir(kernelRuntimeDir(env));
  checkPrivateFileIfPresent(endpoint.logPath);
  const logFd = fs.openSync(endpoint.logPath, "a", PRIVATE_FILE_MODE);
  const logStart = fs.fstatSync(logFd).size;
  let exit: { code: number | null } | undefined;
  try {
    const child = spawn(runtime.nodePath, [...kernelArgs({ ...opts, journalPath }), "--serve", "detached"], {
      detached: true,
      stdio: ["ignore", "ignore", logFd],
      env: kernelEnv(opts),
    });
    child.once("exit", (code) => {
      exit = { code };
    });
    child.once("error", () => {
      exit = { code: null };
    });
    child.unref();
    opts.onSpawn?.({ pid: child.pid, runtime, logPath: endpoint.logPath });
  } finally {
    fs.closeSync(logFd);
  }
  const deadline = Date.now() + (opts.startTimeoutMs ?? START_TIMEOUT_MS);
  for (;;) {
    try {
      // Named again each time: a journal the kernel has just created now has its identity (paths.ts).
      return { ...(await connectKernelSocket(kernelEndpoint(journalPath, env))), journalPath, started: exit === undefined };
    } catch (e) {
      if (!(e instanceof NoKernelListening)) throw e;
    }
    // Exit code 3: another kernel won the lock; it will serve the socket shortly.
    if (exit && exit.code !== KERNEL_EXIT_JOURNAL_OWNED) {
      throw new Error(
        `the kernel exited (${exit.code === null ? "could not be spawned" : `code ${exit.code}`}) before it served ` +
          `clients: ${fatalLines(endpoint.logPath, logStart)}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(
        `no kernel served ${endpoint.socketPath} within ${(opts.startTimeoutMs ?? START_TIMEOUT_MS) / 1000} s; see its log ${endpoint.logPath}`,
      );
    await sleep(50);
  }
}

/** What a kernel that failed to start said, from its log: its fatal line, else its last lines. */
function fatalLines(logPath: string, from: number): string {
  const lines = fs.readFileSync(logPath, "utf8").slice(from).split("\n").filter(Boolean);
  const fatal = lines.filter((l) => l.includes("fatal:")).map((l) => l.slice(l.indexOf("fatal:") + 7));
  return fatal.join(" ") || lines.slice(-3).join(" ") || `no message (log ${logPath})`;
}

// The kernel's process: parses its arguments and environment, keeps its data private, takes the
// journal's lock (one owner per journal), builds the kernel (kernel/kernel.ts: createKernel), serves
// it on its local socket (and on stdio unless detached), stops on signals and, detached, when idle.
// Logs go to stderr (stdout carries only protocol frames).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs as parseNodeArgs } from "node:util";
import { HEARTH_VERSION } from "../shared/version.js";
import { integerDefault, parseKernelEnv } from "../shared/kernelSettings.js";
import { defaultJournalPath, hearthHome, isWithin, kernelEndpoint } from "../shared/node/paths.js";
import { checkPrivateFileIfPresent, ensurePrivateDir, ensurePrivateFile } from "../shared/node/privateFiles.js";
import { KERNEL_EXIT_JOURNAL_OWNED } from "../shared/node/kernelSocket.js";
import { kernelSettingsView } from "../shared/node/kernelSettingsView.js";
import { startRpcServer } from "./rpc/server.js";
import { startSocketEndpoint, type SocketEndpoint } from "./rpc/socketEndpoint.js";
import { acquireJournalLock } from "./kernel/journalLock.js";
import { createKernel, type Kernel } from "./kernel/kernel.js";
import { userRulesFromEnv } from "./kernel/policy/ruleSources.js";
import type { KernelConfig } from "./kernel/kernelInfo.js";
import { errorMessage } from "../shared/errors.js";

function log(line: string): void {
  process.stderr.write(`[hearth-kernel ${new Date().toISOString()}] ${line}\n`);
}

function fail(message: string, code = 2): never {
  log(`fatal: ${message}`);
  process.exit(code);
}

/** stdio: one client on stdin/stdout besides the socket, exits when it leaves. detached: socket only, exits when idle. */
type ServeMode = "stdio" | "detached";

const USAGE = "usage: sidecar --workspace DIR [--db FILE] [--model SPEC] [--serve stdio|detached]";

function parseArgs(argv: string[]): { config: KernelConfig; mode: ServeMode } {
  let values: Partial<Record<"workspace" | "db" | "model" | "serve", string>>;
  try {
    const kernelFlags = {
      workspace: { type: "string" },
      db: { type: "string" },
      model: { type: "string" },
      serve: { type: "string" },
    } as const;
    values = parseNodeArgs({ args: argv, options: kernelFlags, strict: true }).values;
  } catch (e) {
    fail(`bad arguments ${JSON.stringify(argv)} (${errorMessage(e)}); ${USAGE}`);
  }
  const flags = new Map(Object.entries(values));
  const ws = flags.get("workspace") ?? fail("missing --workspace DIR: the kernel serves exactly one workspace folder");
  let workspaceRoot: string;
  try {
    workspaceRoot = fs.realpathSync(ws);
    if (!fs.statSync(workspaceRoot).isDirectory()) fail(`--workspace ${ws} is not a directory`);
  } catch (e) {
    fail(`--workspace ${ws} cannot be opened: ${errorMessage(e)}`);
  }
  const journalPath = path.resolve(flags.get("db") ?? defaultJournalPath(workspaceRoot));
  if (isWithin(workspaceRoot, journalPath)) {
    fail(
      `refused: the journal ${journalPath} lies inside the workspace ${workspaceRoot}; tools could read or ` +
        "overwrite it. Pass --db with a path outside the workspace",
    );
  }
  const mode = flags.get("serve") ?? "stdio";
  if (mode !== "stdio" && mode !== "detached") fail(`--serve ${mode} is not stdio or detached; ${USAGE}`);
  return { config: { kernelVersion: HEARTH_VERSION, workspaceRoot, journalPath, modelSpec: flags.get("model") ?? null }, mode };
}

/**
 * issue 11, item 17: Hearth's folders 0700 and files 0600 from creation, checked at every open.
 * A journal outside HEARTH_HOME (--db) keeps its folder as the person made it; its files are private.
 */
function makeDataPrivate(config: KernelConfig): void {
  const home = hearthHome();
  try {
    ensurePrivateDir(home, log);
    for (const sub of ["journals", "kv-state", "models"]) ensurePrivateDir(path.join(home, sub), log);
    const journalDir = path.dirname(config.journalPath);
    if (isWithin(home, journalDir)) ensurePrivateDir(journalDir, log);
    else fs.mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    ensurePrivateFile(config.journalPath, log);
    // SQLite gives -wal and -shm the main file's mode when it creates them; older ones are checked.
    for (const suffix of ["-wal", "-shm"]) checkPrivateFileIfPresent(config.journalPath + suffix, log);
  } catch (e) {
    fail(errorMessage(e));
  }
}

/** issue 12, item 1: only the lock's holder opens, reconciles and writes the journal. */
function ownJournal(config: KernelConfig): () => void {
  let outcome: ReturnType<typeof acquireJournalLock>;
  try {
    outcome = acquireJournalLock(config.journalPath, log);
  } catch (e) {
    fail(errorMessage(e));
  }
  if (outcome.owned) return outcome.release;
  const owner = outcome.alias
    ? "another Hearth kernel that opened the same file by another name (a hard link or symlink)"
    : outcome.ownerPid === null
      ? "another Hearth kernel (its pid is not written yet)"
      : `the Hearth kernel with pid ${outcome.ownerPid}`;
  fail(
    `refused: the journal ${config.journalPath} is owned by ${owner} (lock ${outcome.lockPath}); a second kernel never opens a journal ` +
      `another one owns, since it would take the owner's live runs for interrupted ones. Connect to the owner instead (\`hearth\` commands do), ` +
      `or stop it${outcome.ownerPid === null ? "" : ` (kill ${outcome.ownerPid})`} and retry`,
    KERNEL_EXIT_JOURNAL_OWNED,
  );
}

async function main(): Promise<void> {
  const { config, mode } = parseArgs(process.argv.slice(2));
  const parsed = parseKernelEnv(process.env);
  if (!parsed.ok) fail(parsed.errors.join("; "));
  const env = parsed.env;
  makeDataPrivate(config);
  const releaseLock = ownJournal(config);
  let endpoint: SocketEndpoint | undefined;
  let stopping = false;
  const exit = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    // Exit only once stdout has flushed, so the kernel/shutdown reply reaches the client.
    void kernel.shutdown().finally(() => process.stdout.write("", () => process.exit(0)));
  };
  let kernel: Kernel;
  try {
    // issue 27: the person's approval rules (hearth.approval.rules); a bad rule stops the kernel with why.
    const approvalRules = await userRulesFromEnv(env.HEARTH_APPROVAL_RULES);
    kernel = createKernel(
      { config, env, view: kernelSettingsView(process.env), approvalRules },
      {
        log,
        ownerId: `local:${os.userInfo().username}`,
        home: hearthHome(),
        exit: () => exit("kernel/shutdown"),
        steps: { socket: () => endpoint?.close(), "journal lock": releaseLock },
      },
    );
  } catch (e) {
    fail(errorMessage(e));
  }
  // Seconds a detached kernel with no clients and no running turn waits before it exits.
  const idleMs = (env.HEARTH_KERNEL_IDLE_SECONDS ?? integerDefault("HEARTH_KERNEL_IDLE_SECONDS")) * 1000;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdle = (clients: number) => {
    clearTimeout(idleTimer);
    if (mode !== "detached" || clients > 0) return;
    idleTimer = setTimeout(() => {
      if (kernel.busy())
        armIdle(0); // a turn outlives its client (a window reload); wait for it
      else exit(`idle: no client and nothing running for ${idleMs / 1000} s`);
    }, idleMs);
  };
  try {
    endpoint = await startSocketEndpoint({
      endpoint: kernelEndpoint(config.journalPath),
      handlers: kernel.handlers,
      log,
      onClients: armIdle,
      onClient: (c) => kernel.join(c),
    });
  } catch (e) {
    fail(`cannot serve clients on ${kernelEndpoint(config.journalPath).socketPath}: ${errorMessage(e)}`);
  }
  armIdle(0);
  if (mode === "stdio") {
    kernel.join(startRpcServer({ input: process.stdin, output: process.stdout, handlers: kernel.handlers, log }).client);
    process.stdin.on("end", () => exit("stdin closed"));
  }
  process.on("SIGTERM", () => exit("SIGTERM"));
  process.on("SIGINT", () => exit("SIGINT"));
  log(
    `Hearth kernel ${config.kernelVersion} pid ${process.pid} serving ${config.workspaceRoot} (${mode}; ` +
      `journal ${config.journalPath}, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "default"})`,
  );
}

void main();

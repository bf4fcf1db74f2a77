// The kernel's composition root: parses its arguments, takes the journal's lock (one owner per
// journal), builds every part with explicit dependencies, serves JSON-RPC on its local socket (and
// on stdio unless detached) and logs to stderr (stdout carries only protocol frames).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs as parseNodeArgs } from "node:util";
import { uuidv7 } from "../shared/ids.js";
import { HEARTH_VERSION } from "../shared/version.js";
import { defaultJournalPath, hearthHome, isWithin, kernelEndpoint } from "../shared/node/paths.js";
import { checkPrivateFileIfPresent, ensurePrivateDir, ensurePrivateFile } from "../shared/node/privateFiles.js";
import { KERNEL_EXIT_JOURNAL_OWNED } from "../shared/node/kernelSocket.js";
import { kernelSettingsView } from "../shared/node/kernelSettingsView.js";
import { startRpcServer } from "./rpc/server.js";
import { startSocketEndpoint, type SocketEndpoint } from "./rpc/socketEndpoint.js";
import { acquireJournalLock } from "./kernel/journalLock.js";
import { ShutdownGate } from "./kernel/shutdownGate.js";
import { kernelHandlers } from "./kernel/handlers/kernelHandlers.js";
import { sessionHandlers } from "./kernel/handlers/sessionHandlers.js";
import { ControlPlane } from "./kernel/control/controlPlane.js";
import { openJournal, type Journal } from "./journal/journal.js";
import type { ClientChannel, Handlers } from "./kernel/handlers/types.js";
import { ModelHost } from "./kernel/model/modelHost.js";
import { modelHandlers } from "./kernel/model/modelHandlers.js";
import type { KernelConfig } from "./kernel/kernelInfo.js";
import { ScriptedModel } from "./inference/scripted/scriptedModel.js";
import { buildWorkspaceTools } from "./tools/buildWorkspaceTools.js";
import { TurnService } from "./kernel/turns/turnService.js";
import { compactSession } from "./kernel/turns/condensingService.js";
import { buildSessionAgent } from "./kernel/turns/sessionAgent.js";
import { turnHandlers } from "./kernel/handlers/turnHandlers.js";
import { MessageAttachments } from "./kernel/context/messageAttachments.js";
import { SessionErase } from "./kernel/erase/sessionErase.js";
import { taskHandlers } from "./kernel/handlers/taskHandlers.js";
import { undoHandlers } from "./kernel/handlers/undoHandlers.js";
import { FileWriteJournal } from "./kernel/undo/fileWriteJournal.js";
import { TurnEditsService } from "./kernel/undo/turnEdits.js";
import { ClientRegistry } from "./kernel/tasks/clientRegistry.js";
import { delegateTaskTool } from "./kernel/tasks/delegateTaskTool.js";
import { TaskService } from "./kernel/tasks/taskService.js";
import { applyToolPolicy } from "./kernel/toolPolicy.js";
import { userRulesFromEnv } from "./kernel/policy/ruleSources.js";
import { errorMessage } from "../shared/errors.js";

function log(line: string): void {
  process.stderr.write(`[hearth-kernel ${new Date().toISOString()}] ${line}\n`);
}

function fail(message: string, code = 2): never {
  log(`fatal: ${message}`);
  process.exit(code);
}

/** An optional positive integer setting from the environment; a bad value stops the kernel with a clear message. */
function positiveIntEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) fail(`${name}=${raw} is not a positive integer; unset it or give a number such as 2`);
  return value;
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
  const owner =
    outcome.ownerPid === null ? "another Hearth kernel (its pid is not written yet)" : `the Hearth kernel with pid ${outcome.ownerPid}`;
  fail(
    `refused: the journal ${config.journalPath} is owned by ${owner} (lock ${outcome.lockPath}); a second kernel never opens a journal ` +
      `another one owns, since it would take the owner's live runs for interrupted ones. Connect to the owner instead (\`hearth\` commands do), ` +
      `or stop it${outcome.ownerPid === null ? "" : ` (kill ${outcome.ownerPid})`} and retry`,
    KERNEL_EXIT_JOURNAL_OWNED,
  );
}

/** Opens the journal and reconciles it, or exits with the journal's own refusal (what, why, what to do). */
function openControlPlane(config: KernelConfig): { journal: Journal; control: ControlPlane } {
  let journal: Journal;
  try {
    journal = openJournal(config.journalPath);
  } catch (e) {
    fail(errorMessage(e));
  }
  // control plane #5: the owner is the local user who started this kernel, never a value a client sends.
  const control = new ControlPlane(journal, {
    ownerId: `local:${os.userInfo().username}`,
    workspace: config.workspaceRoot,
    bootEpoch: uuidv7(), // this boot's epoch: a claim from an earlier boot cannot complete (docs/control-plane.md)
  });
  const report = control.reconcile();
  log(`journal reconciled: ${JSON.stringify(report)}`);
  return { journal, control };
}

/** Background tasks that run at once unless HEARTH_MAX_TASKS says otherwise; the rest queue. */
const DEFAULT_MAX_TASKS = 2;

/** Seconds a detached kernel with no clients and no running turn waits before it exits. */
const DEFAULT_IDLE_SECONDS = 600;

async function main(): Promise<void> {
  const { config, mode } = parseArgs(process.argv.slice(2));
  const gate = new ShutdownGate();
  makeDataPrivate(config);
  const releaseLock = ownJournal(config);
  gate.onShutdown("journal lock", releaseLock);
  const { journal, control } = openControlPlane(config);
  gate.onShutdown("journal", () => journal.close());
  // Registered here so it runs after the turns stop (hooks run in reverse): clients get their last events.
  let endpoint: SocketEndpoint | undefined;
  gate.onShutdown("socket", () => endpoint?.close());
  const handlers: Handlers = {};
  let stopping = false;
  const exit = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    // Exit only once stdout has flushed, so the kernel/shutdown reply reaches the client.
    void gate.shutdown(log).finally(() => process.stdout.write("", () => process.exit(0)));
  };
  Object.assign(
    handlers,
    kernelHandlers({
      config,
      gate,
      implementedMethods: () => Object.keys(handlers),
      adapters: () => ["llama", "openai", "scripted"],
      tools: () => offered.map((t) => t.definition.name),
      settings: kernelSettingsView(process.env),
      exit: () => exit("kernel/shutdown"),
    }),
  );
  Object.assign(handlers, sessionHandlers({ control, gate, defaultModel: config.modelSpec }));
  // issue 6: one model per kernel; saved KV state and downloads live outside the workspace.
  const modelHost = new ModelHost({
    stateDir: path.join(hearthHome(), "kv-state"),
    modelsDir: path.join(hearthHome(), "models"),
    log,
    threads: positiveIntEnv("HEARTH_THREADS"),
    contextSize: positiveIntEnv("HEARTH_CONTEXT_SIZE"),
    // Sessions holding a KV cache at once (the llama engine's sequences; default 4).
    maxSessions: positiveIntEnv("HEARTH_SESSIONS"),
    // Test and demo replays: ScriptedModel refuses itself unless HEARTH_ALLOW_SCRIPTED=1.
    scripted: async (file) => ScriptedModel.fromFile(file, process.env),
  });
  gate.onShutdown("model", () => modelHost.unload());
  Object.assign(handlers, modelHandlers({ host: modelHost, gate, modelsDir: path.join(hearthHome(), "models") }));
  // harness #9, #12: tools anchored at the workspace descriptor; file tools and shell register apart.
  // issue 14 item 5: each write's pre-image is journaled, so a person can undo a turn's edits.
  // harness #11: web_fetch exists only when the person opted in (hearth.tools.webFetch, HEARTH_WEB_FETCH=1).
  const tools = buildWorkspaceTools({
    workspaceRoot: config.workspaceRoot,
    shell: true,
    network: { fetch: process.env.HEARTH_WEB_FETCH === "1" },
    writes: new FileWriteJournal(journal, log),
  });
  gate.onShutdown("tools", () => tools.close());
  // issue 12: delegate_task is offered when the policy names it (the editor's default list does); it
  // starts a task on the task service built below, for the coordinator session bound to it.
  let tasks: TaskService | undefined;
  const kernelTasks = (): TaskService => tasks ?? fail("delegate_task ran before the task service was built");
  let offered: ReturnType<typeof applyToolPolicy>;
  try {
    const policyList = process.env.HEARTH_TOOLS;
    offered = policyList?.trim() ? applyToolPolicy([...tools.tools, delegateTaskTool(kernelTasks, null)], policyList) : tools.tools;
  } catch (e) {
    fail(`HEARTH_TOOLS: ${errorMessage(e)}`);
  }
  // The person's approval and loop-guard settings (README: configuration).
  const policy = {
    approveReads: process.env.HEARTH_APPROVE_READS === "1",
    maxRounds: positiveIntEnv("HEARTH_MAX_ROUNDS"),
    repeatedFailureLimit: positiveIntEnv("HEARTH_REPEATED_FAILURE_LIMIT"),
  };
  // issue 27: the person's approval rules (hearth.approval.rules); a bad rule stops the kernel with why.
  let userRules: Awaited<ReturnType<typeof userRulesFromEnv>>;
  try {
    userRules = await userRulesFromEnv(process.env.HEARTH_APPROVAL_RULES);
  } catch (e) {
    fail(errorMessage(e));
  }
  const turns = new TurnService({
    control,
    log,
    contextFill: (sessionId) => modelHost.contextFill(sessionId),
    buildAgent: (run, client) =>
      buildSessionAgent(
        {
          control,
          models: modelHost,
          tools,
          offered,
          policy,
          approvalRules: { user: userRules, log },
          bindToSession: (tool, sessionId) => (tool.definition.name === "delegate_task" ? delegateTaskTool(kernelTasks, sessionId) : tool),
        },
        run,
        client,
      ),
    releaseModel: (runId) => modelHost.release(runId),
  });
  gate.onShutdown("turns", () => turns.stopAll());
  const compact = (sessionId: string, client: ClientChannel) =>
    compactSession(
      { control, models: modelHost, workspacePath: tools.workspace.canonicalPath, running: (id) => turns.running(id) },
      sessionId,
      client,
    );
  // issue 15: attached context is read with the kernel's own anchored read_file; erase is refused while a turn runs.
  const readFile = tools.tools.find((t) => t.definition.name === "read_file") ?? fail("the workspace tools have no read_file");
  const attachments = new MessageAttachments({ readFile });
  const erase = new SessionErase({ journal, scope: control.scope, running: (id) => turns.running(id) });
  Object.assign(handlers, turnHandlers({ turns, gate, compact, attachments, erase }));
  Object.assign(handlers, undoHandlers({ edits: new TurnEditsService({ journal, scope: control.scope, restorer: tools.restorer }), gate }));
  // issue 12: background tasks, HEARTH_MAX_TASKS of them at once; their events and approvals go to every client.
  const clients = new ClientRegistry();
  tasks = new TaskService({
    control,
    turns,
    clients,
    log,
    defaultModel: config.modelSpec,
    maxRunning: positiveIntEnv("HEARTH_MAX_TASKS") ?? DEFAULT_MAX_TASKS,
    offeredTools: () => offered.map((t) => t.definition.name),
  });
  // Runs before "turns" (hooks run in reverse): a task stopped by the shutdown is orphaned, not cancelled.
  gate.onShutdown("tasks", () => tasks.stopAccepting());
  Object.assign(handlers, taskHandlers({ tasks, control, gate }));
  tasks.pump(); // tasks a previous kernel left queued (reconciliation keeps them queued: they never ran)
  const initialize = handlers.initialize!;
  handlers.initialize = async (params, ctx) => {
    const answer = await initialize(params, ctx);
    // After the answer is written: the client's handlers are in place once it reads it.
    setImmediate(() => clients.ready(ctx.client));
    return answer;
  };
  const idleMs = (positiveIntEnv("HEARTH_KERNEL_IDLE_SECONDS") ?? DEFAULT_IDLE_SECONDS) * 1000;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdle = (clients: number) => {
    clearTimeout(idleTimer);
    if (mode !== "detached" || clients > 0) return;
    idleTimer = setTimeout(() => {
      if (turns.busy())
        armIdle(0); // a turn outlives its client (a window reload); wait for it
      else exit(`idle: no client and nothing running for ${idleMs / 1000} s`);
    }, idleMs);
  };
  try {
    endpoint = await startSocketEndpoint({
      endpoint: kernelEndpoint(config.journalPath),
      handlers,
      log,
      onClients: armIdle,
      onClient: (c) => clients.add(c),
    });
  } catch (e) {
    fail(`cannot serve clients on ${kernelEndpoint(config.journalPath).socketPath}: ${errorMessage(e)}`);
  }
  armIdle(0);
  if (mode === "stdio") {
    clients.add(startRpcServer({ input: process.stdin, output: process.stdout, handlers, log }).client);
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

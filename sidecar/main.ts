// The kernel's composition root: parses its arguments, builds every part with explicit
// dependencies, serves JSON-RPC on stdio and logs to stderr (stdout carries only protocol frames).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { uuidv7 } from "../shared/ids.js";
import { HEARTH_VERSION } from "../shared/version.js";
import { defaultJournalPath, hearthHome, isWithin } from "../shared/node/paths.js";
import { startRpcServer } from "./rpc/server.js";
import { ShutdownGate } from "./kernel/shutdownGate.js";
import { kernelHandlers } from "./kernel/handlers/kernelHandlers.js";
import { sessionHandlers } from "./kernel/handlers/sessionHandlers.js";
import { ControlPlane } from "./kernel/control/controlPlane.js";
import { openJournal, type Journal } from "./journal/journal.js";
import type { Handlers } from "./kernel/handlers/types.js";
import { ModelHost } from "./kernel/model/modelHost.js";
import { modelHandlers } from "./kernel/model/modelHandlers.js";
import type { KernelConfig } from "./kernel/kernelInfo.js";
import { ScriptedModel } from "./inference/scripted/scriptedModel.js";
import { buildWorkspaceTools } from "./tools/buildWorkspaceTools.js";
import { TurnService } from "./kernel/turns/turnService.js";
import { buildSessionAgent } from "./kernel/turns/sessionAgent.js";
import { turnHandlers } from "./kernel/handlers/turnHandlers.js";
import { applyToolPolicy } from "./kernel/toolPolicy.js";

function log(line: string): void {
  process.stderr.write(`[hearth-kernel ${new Date().toISOString()}] ${line}\n`);
}

function fail(message: string): never {
  log(`fatal: ${message}`);
  process.exit(2);
}

/** An optional positive integer setting from the environment; a bad value stops the kernel with a clear message. */
function positiveIntEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) fail(`${name}=${raw} is not a positive integer; unset it or give a number such as 2`);
  return value;
}

function parseArgs(argv: string[]): KernelConfig {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!;
    const value = argv[i + 1];
    if (!key.startsWith("--") || value === undefined) fail(`bad arguments ${JSON.stringify(argv)}; usage: sidecar --workspace DIR [--db FILE] [--model SPEC]`);
    flags.set(key.slice(2), value);
  }
  const ws = flags.get("workspace") ?? fail("missing --workspace DIR: the kernel serves exactly one workspace folder");
  let workspaceRoot: string;
  try {
    workspaceRoot = fs.realpathSync(ws);
    if (!fs.statSync(workspaceRoot).isDirectory()) fail(`--workspace ${ws} is not a directory`);
  } catch (e) {
    fail(`--workspace ${ws} cannot be opened: ${(e as Error).message}`);
  }
  const journalPath = path.resolve(flags.get("db") ?? defaultJournalPath(workspaceRoot));
  if (isWithin(workspaceRoot, journalPath)) {
    fail(`refused: the journal ${journalPath} lies inside the workspace ${workspaceRoot}; tools could read or overwrite it. Pass --db with a path outside the workspace`);
  }
  return { kernelVersion: HEARTH_VERSION, workspaceRoot, journalPath, modelSpec: flags.get("model") ?? null };
}

/** Opens the journal and reconciles it, or exits with the journal's own refusal (what, why, what to do). */
function openControlPlane(config: KernelConfig): { journal: Journal; control: ControlPlane } {
  let journal: Journal;
  try {
    journal = openJournal(config.journalPath);
  } catch (e) {
    fail((e as Error).message);
  }
  // spec 004: the owner is the local user who started this kernel, never a value a client sends.
  const control = new ControlPlane(journal, { ownerId: `local:${os.userInfo().username}`, workspace: config.workspaceRoot, bootEpoch: uuidv7() });
  const report = control.reconcile();
  log(`journal reconciled: ${JSON.stringify(report)}`);
  return { journal, control };
}

function main(): void {
  const config = parseArgs(process.argv.slice(2));
  const gate = new ShutdownGate();
  const { journal, control } = openControlPlane(config);
  gate.onShutdown("journal", () => journal.close());
  const handlers: Handlers = {};
  let stopping = false;
  const exit = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    // Exit only once stdout has flushed, so the kernel/shutdown reply reaches the client.
    void gate.shutdown(log).finally(() => process.stdout.write("", () => process.exit(0)));
  };
  Object.assign(handlers, kernelHandlers({
    config,
    gate,
    implementedMethods: () => Object.keys(handlers),
    adapters: () => ["llama", "openai", "scripted"],
    tools: () => offered.map((t) => t.definition.name),
    exit: () => exit("kernel/shutdown"),
  }));
  Object.assign(handlers, sessionHandlers({ control, gate, defaultModel: config.modelSpec }));
  // issue 6: one model per kernel; saved KV state and downloads live outside the workspace.
  const modelHost = new ModelHost({
    stateDir: path.join(hearthHome(), "kv-state"), modelsDir: path.join(hearthHome(), "models"), log,
    threads: positiveIntEnv("HEARTH_THREADS"), contextSize: positiveIntEnv("HEARTH_CONTEXT_SIZE"),
    // Test and demo replays: ScriptedModel refuses itself unless HEARTH_ALLOW_SCRIPTED=1.
    scripted: async (file) => ScriptedModel.fromFile(file, process.env),
  });
  gate.onShutdown("model", () => modelHost.unload());
  Object.assign(handlers, modelHandlers({ host: modelHost, gate }));
  // spec 000 #9, #12: tools anchored at the workspace descriptor; file tools and shell register apart.
  const tools = buildWorkspaceTools({ workspaceRoot: config.workspaceRoot, shell: true });
  gate.onShutdown("tools", () => tools.close());
  let offered: ReturnType<typeof applyToolPolicy>;
  try {
    offered = applyToolPolicy(tools.tools, process.env.HEARTH_TOOLS);
  } catch (e) {
    fail(`HEARTH_TOOLS: ${(e as Error).message}`);
  }
  const turns = new TurnService({ control, log, buildAgent: (run, client) => buildSessionAgent({ control, models: modelHost, tools, offered }, run, client) });
  gate.onShutdown("turns", () => turns.stopAll());
  Object.assign(handlers, turnHandlers({ turns, gate }));
  startRpcServer({ input: process.stdin, output: process.stdout, handlers, log });
  process.stdin.on("end", () => exit("stdin closed"));
  process.on("SIGTERM", () => exit("SIGTERM"));
  process.on("SIGINT", () => exit("SIGINT"));
  log(`Hearth kernel ${config.kernelVersion} serving ${config.workspaceRoot} (journal ${config.journalPath}, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "default"})`);
}

main();

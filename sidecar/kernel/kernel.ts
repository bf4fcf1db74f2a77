// The one constructor of the kernel (issue 22, item 1): from its settings and its host it builds
// every part with explicit dependencies, in dependency order, and the complete handler table. The
// process (sidecar/main.ts) and every in-process test kernel are built by this function alone.
import path from "node:path";
import { uuidv7 } from "../../shared/ids.js";
import { errorMessage } from "../../shared/errors.js";
import { integerDefault, type KernelEnv } from "../../shared/kernelSettings.js";
import { kernelSettingsView } from "../../shared/node/kernelSettingsView.js";
import type { AgentModel } from "../agent/ports/model.js";
import { ScriptedModel } from "../inference/scripted/scriptedModel.js";
import { openJournal, type Journal } from "../journal/journal.js";
import { buildWorkspaceTools, type WorkspaceTools } from "../tools/buildWorkspaceTools.js";
import { captureShellEnvironment } from "../tools/shellEnvironment.js";
import type { ClientChannel } from "./clientChannel.js";
import { ClientNarrowings } from "./clientNarrowings.js";
import { MessageAttachments } from "./context/messageAttachments.js";
import { instructionReader } from "./context/instructionReader.js";
import { modeReader } from "./modes/modeCatalog.js";
import { promptReader } from "./prompts/promptCatalog.js";
import { modeHandlers } from "./handlers/modeHandlers.js";
import { promptHandlers } from "./handlers/promptHandlers.js";
import { ControlPlane } from "./control/controlPlane.js";
import { SessionErase } from "./erase/sessionErase.js";
import { instructionHandlers } from "./handlers/instructionHandlers.js";
import { kernelHandlers } from "./handlers/kernelHandlers.js";
import { mcpHandlers } from "./handlers/mcpHandlers.js";
import { sessionHandlers } from "./handlers/sessionHandlers.js";
import { taskHandlers } from "./handlers/taskHandlers.js";
import { turnHandlers } from "./handlers/turnHandlers.js";
import type { AllHandlers } from "./handlers/types.js";
import { undoHandlers } from "./handlers/undoHandlers.js";
import { rewindHandlers } from "./handlers/rewindHandlers.js";
import type { KernelConfig } from "./kernelInfo.js";
import { modelHandlers } from "./model/modelHandlers.js";
import { ModelHost } from "./model/modelHost.js";
import { McpConfirmations } from "./mcp/mcpConfirmations.js";
import { McpContext } from "./mcp/mcpContext.js";
import { McpHub } from "./mcp/mcpHub.js";
import { importedConfigFiles } from "./mcp/mcpSources.js";
import { ShutdownGate } from "./shutdownGate.js";
import type { ApprovalRule } from "./policy/approvalRules.js";
import { ClientPrincipals } from "./principals/clientPrincipals.js";
import { DecisionJournal } from "./principals/decisionJournal.js";
import { taskAnswerHandler, withPrincipals } from "./principals/principalHandlers.js";
import { ClientRegistry } from "./tasks/clientRegistry.js";
import { delegateTaskTool } from "./tasks/delegateTaskTool.js";
import { PendingTaskApprovals } from "./tasks/taskChannel.js";
import { TaskService } from "./tasks/taskService.js";
import { applyToolPolicy } from "./toolPolicy.js";
import { keepToolsHandler } from "./handlers/keepToolsHandler.js";
import { compactSession } from "./turns/condensingService.js";
import { BackgroundCondensing } from "./turns/backgroundCondensing.js";
import { buildSessionAgent, type SessionAgentDeps } from "./turns/sessionAgent.js";
import { WEB_FETCH } from "./turns/fetchFirst.js";
import { nextTurnPrefix } from "./turns/nextTurnPrefix.js";
import { TurnService } from "./turns/turnService.js";
import { FileWriteJournal } from "./undo/fileWriteJournal.js";
import { TurnEditsService } from "./undo/turnEdits.js";
import { RewindService } from "./undo/rewindService.js";

/**
 * How the kernel stops, first step first. The tasks stop accepting before the turns stop (a task
 * stopped by the shutdown is orphaned, not cancelled); the socket closes after the turns, so clients
 * get their last events; MCP servers stop once no turn can call them; the journal closes after everything
 * that writes it; the lock goes last.
 * "socket" and "journal lock" are the process's (KernelHost.steps).
 */
export const SHUTDOWN_ORDER = ["tasks", "turns", "condensing", "mcp", "tools", "model", "socket", "journal", "journal lock"] as const;
type HostStep = "socket" | "journal lock";

export interface KernelSettings {
  config: KernelConfig;
  /** The environment, parsed by the one schema (shared/kernelSettings.ts). */
  env: KernelEnv;
  /** The person's approval rules, parsed from HEARTH_APPROVAL_RULES by the process (the parser loads asynchronously). */
  approvalRules?: readonly ApprovalRule[];
  /** The environment as clients compare it (shared/node/kernelSettingsView.ts). */
  view?: Record<string, string>;
}

export interface KernelHost {
  log(line: string): void;
  /** control plane #5: the local user who started this kernel, never a value a client sends. */
  ownerId: string;
  /** Where saved KV state (kv-state/) and downloads (models/) live: Hearth's home, outside the workspace. */
  home: string;
  /** kernel/shutdown was accepted and answered: the process stops. */
  exit(): void;
  /** The steps of SHUTDOWN_ORDER the process owns. */
  steps?: Partial<Record<HostStep, () => Promise<void> | void>>;
  /** Loads a scripted:FILE model (default: ScriptedModel, which refuses itself unless HEARTH_ALLOW_SCRIPTED=1). */
  scripted?: (file: string) => Promise<AgentModel>;
}

export interface Kernel {
  handlers: AllHandlers;
  clients: ClientRegistry;
  /** A client connected: it hears task events; the returned function is called when it leaves. */
  join(client: ClientChannel): () => void;
  /** Runs SHUTDOWN_ORDER once; later calls get the same promise. */
  shutdown(): Promise<void>;
  /** True while a turn runs: a detached kernel with no client waits for it before idling out. */
  busy(): boolean;
  parts: {
    journal: Journal;
    control: ControlPlane;
    tools: WorkspaceTools;
    turns: TurnService;
    tasks: TaskService;
    models: ModelHost;
    mcp: McpHub;
  };
}

/** Builds the kernel: opens and reconciles the journal, then every part. Throws what stops it (the message says what to do). */
export function createKernel(settings: KernelSettings, host: KernelHost): Kernel {
  const { config, env } = settings;
  const { log } = host;
  const gate = new ShutdownGate(SHUTDOWN_ORDER);
  for (const [step, run] of Object.entries(host.steps ?? {})) gate.onShutdown(step, run);
  const journal = openJournal(config.journalPath);
  gate.onShutdown("journal", () => journal.close());
  const control = new ControlPlane(journal, {
    ownerId: host.ownerId,
    workspace: config.workspaceRoot,
    bootEpoch: uuidv7(), // this boot's epoch: a claim from an earlier boot cannot complete (docs/control-plane.md)
  });
  log(`journal reconciled: ${JSON.stringify(control.reconcile())}`);

  // issue 6: one model per kernel; saved KV state and downloads live outside the workspace.
  const modelsDir = path.join(host.home, "models");
  const models = new ModelHost({
    stateDir: path.join(host.home, "kv-state"),
    modelsDir,
    log,
    threads: env.HEARTH_THREADS,
    contextSize: env.HEARTH_CONTEXT_SIZE,
    gpu: env.HEARTH_GPU === "off" ? false : undefined,
    // Sessions holding a KV cache at once (the llama engine's sequences; default 4).
    maxSessions: env.HEARTH_SESSIONS,
    inputLookup: env.HEARTH_INPUT_LOOKUP !== "off",
    draftModel: env.HEARTH_DRAFT_MODEL,
    scripted:
      host.scripted ??
      (async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: env.HEARTH_ALLOW_SCRIPTED ? "1" : undefined })),
  });
  gate.onShutdown("model", () => models.close());

  // harness #9, #12: tools anchored at the workspace descriptor; file tools and shell register apart.
  // issue 14 item 5: each write's pre-image is journaled, so a person can undo a turn's edits.
  // harness #11: web_fetch exists only when the person opted in (hearth.tools.webFetch, HEARTH_WEB_FETCH=1).
  const tools = buildWorkspaceTools({
    workspaceRoot: config.workspaceRoot,
    shell: true,
    network: { fetch: env.HEARTH_WEB_FETCH },
    writes: new FileWriteJournal(journal, log),
  });
  gate.onShutdown("tools", () => tools.close());
  // issue 12: delegate_task is offered when the policy names it (the editor's default list does); it
  // starts a task on the task service, for the coordinator session bound to it. The service is built
  // below; the tool reaches it only when a model calls it, long after this function returned.
  const kernelTasks = (): TaskService => tasks;
  // Every built-in tool, offered or not: a session that kept its earlier tools takes them from here (issue 25 item 2).
  const inventory = [...tools.tools, delegateTaskTool(kernelTasks, null)];
  let offered: ReturnType<typeof applyToolPolicy>;
  try {
    offered = env.HEARTH_TOOLS ? applyToolPolicy(inventory, env.HEARTH_TOOLS) : tools.tools;
  } catch (e) {
    throw new Error(`HEARTH_TOOLS: ${errorMessage(e)}`);
  }
  const offeredNames = () => offered.map((t) => t.definition.name);
  // issue 28: MCP servers, owned by the kernel, started when a trusted session first needs them.
  const mcp = new McpHub({
    sources: { userSetting: env.HEARTH_MCP_SERVERS, readWorkspace: tools.readText, importFiles: importedConfigFiles() },
    confirmations: new McpConfirmations(journal),
    workspaceFolder: tools.workspace.canonicalPath,
    baseEnv: captureShellEnvironment().env,
    log,
  });
  gate.onShutdown("mcp", () => mcp.close());
  const mcpContext = new McpContext(mcp);
  // The person's approval and loop-guard settings (README: configuration).
  const policy = {
    approveReads: env.HEARTH_APPROVE_READS,
    maxRounds: env.HEARTH_MAX_ROUNDS,
    repeatedFailureLimit: env.HEARTH_REPEATED_FAILURE_LIMIT,
  };
  // issue 24: who each client is; a chat turn's approvals go to its starter, every decision journaled.
  const principals = new ClientPrincipals(config);
  // Every connected client: task events, condensations and decisions go to all of them.
  const clients = new ClientRegistry();
  // issue 27: every client hears each decision as it is journaled.
  const decisions = new DecisionJournal(journal, (notice) => clients.notifyAll("approval/decided", notice));
  // What every session's harness is built from: a turn's, and the prefix prepared ahead of one (issue 30).
  const agents: SessionAgentDeps = {
    control,
    models,
    tools,
    offered,
    inventory,
    mcp,
    policy,
    approvalRules: { user: settings.approvalRules ?? [], log },
    decisions,
    bindToSession: (tool, sessionId) => (tool.definition.name === "delegate_task" ? delegateTaskTool(kernelTasks, sessionId) : tool),
  };
  const turns = new TurnService({
    control,
    log,
    ask: (owner, req, signal) => decisions.ask(owner, principals.of(owner), req, signal),
    mayTakeOver: (starter, follower) => principals.mayTakeOver(starter, follower),
    contextFill: (sessionId) => models.contextFill(sessionId),
    buildAgent: (run, client) => buildSessionAgent(agents, run, client),
    releaseModel: (turnId) => models.release(turnId),
    modelSettled: (sessionId) => models.settled(sessionId),
    turnStarting: () => condensing.yieldToTurn(),
    turnEnded: (run) => condensing.turnEnded(run),
  });
  gate.onShutdown("turns", () => turns.stopAll());
  // issue 30, item 3: sessions near their context limit are condensed between turns, in idle time.
  const condensing = new BackgroundCondensing({
    enabled: env.HEARTH_CONDENSE_AHEAD === "on",
    control,
    models,
    workspacePath: tools.workspace.canonicalPath,
    busy: () => turns.busy(),
    announce: (sessionId, condensation) => clients.notifyAll("session/condensed", { sessionId, condensation }),
    nextTurnPrefix: (last, model) => nextTurnPrefix(agents, last, model),
    log,
  });
  gate.onShutdown("condensing", () => condensing.stop());
  const compact = (sessionId: string, client: ClientChannel) =>
    compactSession(
      { control, models, workspacePath: tools.workspace.canonicalPath, running: (id) => turns.running(id) },
      sessionId,
      client,
    );
  // issue 15: attached context is read with the kernel's own anchored read_file; erase is refused while a turn runs.
  // issue 29 item 3: a folder chip is listed with its anchored list_dir.
  const readFile = tools.tools.find((t) => t.definition.name === "read_file");
  const listDir = tools.tools.find((t) => t.definition.name === "list_dir");
  if (!readFile || !listDir) throw new Error("the workspace tools have no read_file or no list_dir");
  const attachments = new MessageAttachments({ readFile, listDir, resources: mcpContext });
  const erase = new SessionErase({ journal, scope: control.scope, running: (id) => turns.running(id), log });
  // issue 27: the project's instruction files and the person's own rules, read as each turn is admitted.
  const modes = modeReader(tools);
  const instructions = instructionReader({ tools, control, personal: env.HEARTH_PERSONAL_INSTRUCTIONS ?? "" });

  // issue 12: background tasks, HEARTH_MAX_TASKS of them at once; their events and approvals go to every client.
  const pending = new PendingTaskApprovals();
  const tasks: TaskService = new TaskService({
    control,
    turns,
    clients,
    log,
    defaultModel: config.modelSpec,
    // Background tasks that run at once; the rest queue.
    maxRunning: env.HEARTH_MAX_TASKS ?? integerDefault("HEARTH_MAX_TASKS"),
    offeredTools: offeredNames,
    journal,
    principals,
    decisions,
    pending,
    instructions,
  });
  gate.onShutdown("tasks", () => tasks.stopAccepting());

  // issue 22, item 2: a joining client's stricter settings apply to the runs it starts.
  const view = settings.view ?? kernelSettingsView({});
  const narrowings = new ClientNarrowings({ settings: view, tools: offeredNames });
  const narrowing = (client: ClientChannel) => narrowings.for(client);
  const handlers: AllHandlers = {
    ...kernelHandlers({
      config,
      gate,
      implementedMethods: () => Object.keys(handlers),
      adapters: () => ["llama", "openai", "scripted"],
      tools: offeredNames,
      settings: view,
      join: (ctx, clientSettings) => narrowings.join(ctx.client, clientSettings),
      initialized: (ctx) => clients.ready(ctx.client),
      exit: host.exit,
    }),
    ...sessionHandlers({ control, gate, defaultModel: config.modelSpec }),
    ...modelHandlers({ host: models, gate, modelsDir }),
    ...turnHandlers({
      turns,
      gate,
      compact,
      attachments,
      erase,
      narrowing,
      instructions,
      modes,
      webFetch: offeredNames().includes(WEB_FETCH),
    }),
    ...instructionHandlers({ instructions, control }),
    ...modeHandlers({ modes, tools }),
    ...promptHandlers({ prompts: promptReader({ tools, modes }), mcp: mcpContext, workspaceFolder: tools.workspace.canonicalPath }),
    ...keepToolsHandler({ agents, gate }),
    ...undoHandlers({ edits: new TurnEditsService({ journal, scope: control.scope, restorer: tools.restorer }), gate }),
    ...rewindHandlers({ rewinds: new RewindService({ journal, control, restorer: tools.restorer }), gate }),
    ...taskHandlers({ tasks, control, gate, narrowing }),
    ...taskAnswerHandler({ principals, pending }),
    ...mcpHandlers({ hub: mcp, context: mcpContext, gate, who: (client) => principals.of(client) }),
  };
  withPrincipals(handlers, { principals, journal, tasks, pending, workspaceRoot: config.workspaceRoot });
  tasks.pump(); // tasks a previous kernel left queued (reconciliation keeps them queued: they never ran)
  return {
    handlers,
    clients,
    join: (client) => {
      const left = clients.add(client);
      return () => {
        left();
        principals.left(client);
      };
    },
    shutdown: () => gate.shutdown(log),
    busy: () => turns.busy(),
    parts: { journal, control, tools, turns, tasks, models, mcp },
  };
}

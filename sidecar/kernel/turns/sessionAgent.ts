// Builds the harness for one run of one session from durable state: the run's pinned context
// snapshot (profile generation: model, system prompt, options; committed history, strict replay), the kernel's
// workspace tools (the authority ceiling) and the run-scoped memory and approval ports.
import type { ExecutionRole, GenerationOptions } from "../../../shared/protocol/index.js";
import { AgentSessionBuilder, type AgentMessage, type AgentSession, type AuthorityInputs } from "../../agent/index.js";
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import type { AgentModel } from "../../agent/ports/model.js";
import type { Tool } from "../../agent/ports/tools.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { TurnContext } from "../control/contextSnapshots.js";
import { projectToolsForRole } from "../control/roles.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ModelHost } from "../model/modelHost.js";
import type { ApprovalRule } from "../policy/approvalRules.js";
import { ruleSetForRun } from "../policy/ruleSources.js";
import { ApplyProposal, type ApplyRequest } from "./applyProposal.js";
import { FetchFirst } from "./fetchFirst.js";
import { ClientApproval } from "./clientApproval.js";
import { withDiagnosticsAfterWrite } from "./writeDiagnostics.js";
import type { DecisionJournal } from "../principals/decisionJournal.js";
import { defaultInstructions } from "./defaultInstructions.js";
import { withInstructions } from "../context/projectInstructions.js";
import { offeredByMode, withMode } from "../modes/modeCatalog.js";
import { DEFAULT_MODE } from "../modes/modeDefinitions.js";
import { JournalCondensations, viewFromJournal } from "./journalCondensations.js";
import { JournalMemory } from "./journalMemory.js";

export interface SessionAgentDeps {
  control: ControlPlane;
  models: ModelHost;
  tools: WorkspaceTools;
  /** The tools this kernel's policy offers: the session's authority ceiling. */
  offered: readonly Tool[];
  /** Every built-in tool this kernel has, offered or not: where a session that kept its earlier tools takes them from (issue 25 item 2). */
  inventory: readonly Tool[];
  /** The person's approval and loop-guard settings (HEARTH_APPROVE_READS, HEARTH_MAX_ROUNDS, ...). */
  policy?: TurnPolicy;
  /** The person's approval rules (hearth.approval.rules); the workspace's are read per run. */
  approvalRules?: { user: readonly ApprovalRule[]; log: (line: string) => void };
  /** Journals each decision a rule made, naming the rule (issue 27, item 4). */
  decisions?: Pick<DecisionJournal, "record">;
  /** The kernel's MCP servers (issue 28): their tools join the ceiling when the session is built. */
  mcp?: { sessionTools(readOnly: boolean): Promise<Tool[]> };
  /** Tools that act for the session using them (delegate_task names its parent): bound per session. */
  bindToSession?: (tool: Tool, sessionId: string) => Tool;
}

export interface TurnPolicy {
  approveReads: boolean;
  maxRounds?: number;
  repeatedFailureLimit?: number;
}

export interface TurnRef {
  sessionId: string;
  turnId: string;
  attemptId: string;
  /** Offer read-only tools only (an untrusted folder); the authority ceiling stays as pinned. */
  readOnly?: boolean;
  /** The starting client's stricter settings (issue 22, item 2): fewer tools, reads asking, lower limits. */
  narrowing?: TurnNarrowing;
  /** "Apply to file" (issue 15): the run's one call is this write, proposed by the kernel, not a model. */
  apply?: ApplyRequest;
  /** Web pages attached to the message (`@url`, issue 29 item 3): the run's first round fetches them. */
  fetchFirst?: readonly string[];
}

/**
 * The session's model for `holder`, loaded into the kernel's one model slot when another (or none)
 * is there, and held until `models.release(holder)`: never unloaded under the turn that uses it.
 */
export function leaseModel(models: ModelHost, spec: string, holder: string, client: ClientChannel): Promise<AgentModel> {
  return models.lease(spec, holder, (p) => client.notify("model/progress", p));
}

/** The session's model, behind the kernel's first round of web fetches when the message attached pages. */
async function sessionModel(deps: SessionAgentDeps, run: TurnRef, spec: string, client: ClientChannel): Promise<AgentModel> {
  const model = await leaseModel(deps.models, spec, run.turnId, client);
  return run.fetchFirst?.length ? new FetchFirst(model, run.fetchFirst) : model;
}

export async function buildSessionAgent(deps: SessionAgentDeps, run: TurnRef, client: ClientChannel): Promise<AgentSession> {
  // control plane #10: the run's pinned snapshot (its profile generation and the history before its own user
  // message, which is the turn's input), never the session as it is now.
  const context = deps.control.turnContext(run.turnId);
  const model = run.apply ? new ApplyProposal(run.apply) : await sessionModel(deps, run, context.profile.model_profile, client);
  // issue 29 item 4: the run's client reports the problems each accepted write left in its file.
  const reportWrites = (tool: Tool) => withDiagnosticsAfterWrite(tool, client, run);
  const { builder, inactiveTools, mode } = await assembleAgent(deps, run, context, model, reportWrites);
  const rules = deps.approvalRules && (await ruleSetForRun(deps.approvalRules.user, deps.tools.readText, run.readOnly === true));
  if (rules?.problem) deps.approvalRules?.log(`run ${run.turnId}: ${rules.problem}`);
  builder
    .memory(new JournalMemory(deps.control, run))
    .approval(new ClientApproval(client, deps.control, run, rules?.rules, deps.decisions, deps.tools.editText, deps.approvalRules?.log))
    .approveReads((deps.policy?.approveReads ?? false) || run.narrowing?.approveReads === true)
    // issue 13: new views are journaled before use.
    .condensationStore(new JournalCondensations(deps.control, run.sessionId, run.turnId, context.history));
  // harness #19: the first turn pins the session's authority; a drifted resume fails closed.
  const authority = builder.authoritySnapshot();
  const pinned = deps.control.pinAuthority(
    run.sessionId,
    authority.digests,
    authority.tools.map((t) => t.name),
  );
  const maxRounds = run.narrowing?.maxRounds ?? deps.policy?.maxRounds;
  if (maxRounds) builder.maxRounds(maxRounds);
  const repeatedFailureLimit = run.narrowing?.repeatedFailureLimit ?? deps.policy?.repeatedFailureLimit;
  if (repeatedFailureLimit) builder.repeatedFailureLimit(repeatedFailureLimit);
  const agent = builder.expectAuthority(pinned as ReturnType<typeof builder.authoritySnapshot>["digests"]).build();
  agent.disableTools(inactiveTools);
  deps.control.recordToolsOffered(run.turnId, {
    mode: mode?.name ?? DEFAULT_MODE,
    modeSource: mode?.source ?? "built-in",
    tools: agent.activeTools(),
  });
  return agent;
}

/** What a session's harness is built from: a run's pinned context, or the session as its next admission would pin it. */
export type AgentContext = Pick<TurnContext, "profile" | "history" | "condensation" | "instructions" | "mode">;

/**
 * The parts of a session's harness that decide what its model is shown: the system prompt, the history
 * in its condensed view, the options, the tools and which of them are active. A turn adds its run's
 * ports to them; the prefill ahead of the next turn (issue 30, nextTurnPrefix.ts) builds the same, so
 * the prompt evaluated in idle time is the one the turn renders.
 */
export async function assembleAgent(
  deps: SessionAgentDeps,
  run: Pick<TurnRef, "sessionId" | "readOnly" | "narrowing">,
  context: AgentContext,
  model: AgentModel,
  /** What a turn adds around a tool's effect (the same definition, so the same prompt and authority). */
  aroundTool: (tool: Tool) => Tool = (tool) => tool,
): Promise<{ builder: AgentSessionBuilder; inactiveTools: string[]; mode: AgentContext["mode"] }> {
  const { profile, history: pinnedHistory, condensation, instructions, mode } = context;
  const history: AgentMessage[] = pinnedHistory.map(({ seq: _seq, ...m }) => m as AgentMessage);
  const { workspace } = deps.tools;
  // issue 28: a server's tools enter the ceiling here, at build; a changed tool list is a new authority (harness #19).
  const mcpTools = (await deps.mcp?.sessionTools(run.readOnly === true)) ?? [];
  const kept = deps.control.keptTools(run.sessionId);
  const tools = sessionTools(deps, mcpTools, profile.execution_role, run.sessionId, kept).map(aroundTool);
  const builder = new AgentSessionBuilder()
    .sessionKey(run.sessionId)
    .model(model)
    .tools(tools)
    // issue 27: the project instructions pinned at admission close the system prompt, so the prefix is
    // the same bytes turn after turn while the files are unchanged (saved KV state stays usable).
    // The mode's instructions come last: a mode switch changes only the end of the prefix.
    .systemPrompt(withMode(withInstructions(profile.system_prompt || defaultInstructions(workspace.canonicalPath), instructions), mode))
    .history(history)
    // issue 13: the session's condensed view, as journaled and pinned at admission (issue 23 item 9).
    .condensedView(viewFromJournal(condensation, pinnedHistory))
    .options(JSON.parse(profile.options_json) as GenerationOptions)
    .authorityInputs(authorityInputs(deps));
  const mcpNames = new Set(mcpTools.map((t) => t.definition.name));
  return { builder, inactiveTools: inactiveTools(tools, run, mode, mcpNames), mode };
}

/** What a session's authority is resolved from besides its tools (harness #19): the folder's identity and the tools' limits. */
export function authorityInputs(deps: Pick<SessionAgentDeps, "tools">): AuthorityInputs {
  const { workspace, ceilings } = deps.tools;
  return {
    workspacePath: workspace.canonicalPath,
    workspaceIdentity: { dev: String(workspace.dev), ino: String(workspace.ino) },
    ceilings: { ...ceilings },
  };
}

/**
 * The tools of the ceiling a run's model is not offered (harness #5: the active subset narrows, the
 * ceiling never does, so a switch is no authority drift): the writing ones in a read-only run, those
 * outside the starting client's list (which names built-in tools; MCP tools are the person's servers),
 * those outside the mode's (issue 27).
 */
function inactiveTools(
  tools: readonly Tool[],
  run: Pick<TurnRef, "readOnly" | "narrowing">,
  mode: AgentContext["mode"],
  mcpNames: ReadonlySet<string>,
): string[] {
  const only = run.narrowing?.tools;
  const offered = mode
    ? offeredByMode(
        mode,
        tools.map((t) => t.definition),
      )
    : null;
  return tools
    .map((t) => t.definition)
    .filter(
      (d) =>
        (run.readOnly === true && d.effectClass !== "read") ||
        (only !== undefined && !only.includes(d.name) && !mcpNames.has(d.name)) ||
        (offered !== null && !offered.has(d.name)),
    )
    .map((d) => d.name);
}

/**
 * The tools a session is offered, from persisted state only (control plane #18: the role owns agent-management
 * authority): the kernel's offered tools and its MCP servers' (or, `kept`, those of them and of the
 * kernel's whole set the session kept), narrowed to a task's ceiling, then the role's projection.
 */
export function sessionTools(
  deps: SessionAgentDeps,
  mcpTools: readonly Tool[],
  role: ExecutionRole,
  sessionId: string,
  kept: readonly string[] | null,
): Tool[] {
  // issue 25 item 2: a session that kept its earlier tools gets them by name, whatever the kernel offers now.
  const offered =
    kept === null ? [...deps.offered, ...mcpTools] : [...deps.inventory, ...mcpTools].filter((t) => kept.includes(t.definition.name));
  const ceiling = deps.control.taskTools(sessionId);
  const withinCeiling = ceiling === null ? offered : offered.filter((t) => ceiling.includes(t.definition.name));
  return projectToolsForRole(
    role,
    withinCeiling.map((t) => ({ name: t.definition.name, tool: t })),
  ).map((t) => deps.bindToSession?.(t.tool, sessionId) ?? t.tool);
}

// Builds the harness for one run of one session from durable state: the run's pinned context
// snapshot (profile generation: model, system prompt, options; committed history, strict replay), the kernel's
// workspace tools (the authority ceiling) and the run-scoped memory and approval ports.
import type { ExecutionRole, GenerationOptions } from "../../../shared/protocol/index.js";
import { AgentSessionBuilder, type AgentMessage, type AgentSession } from "../../agent/index.js";
import type { WorkspaceTools } from "../../tools/buildWorkspaceTools.js";
import type { AgentModel } from "../../agent/ports/model.js";
import type { Tool } from "../../agent/ports/tools.js";
import type { ControlPlane } from "../control/controlPlane.js";
import { projectToolsForRole } from "../control/roles.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ModelHost } from "../model/modelHost.js";
import type { ApprovalRule } from "../policy/approvalRules.js";
import { ruleSetForRun } from "../policy/ruleSources.js";
import { ApplyProposal, type ApplyRequest } from "./applyProposal.js";
import { ClientApproval } from "./clientApproval.js";
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
}

/**
 * The session's model for `holder`, loaded into the kernel's one model slot when another (or none)
 * is there, and held until `models.release(holder)`: never unloaded under the turn that uses it.
 */
export function leaseModel(models: ModelHost, spec: string, holder: string, client: ClientChannel): Promise<AgentModel> {
  return models.lease(spec, holder, (p) => client.notify("model/progress", p));
}

export async function buildSessionAgent(deps: SessionAgentDeps, run: TurnRef, client: ClientChannel): Promise<AgentSession> {
  // control plane #10: the run's pinned snapshot (its profile generation and the history before its own user
  // message, which is the turn's input), never the session as it is now.
  const { profile, history: pinnedHistory, condensation, instructions, mode } = deps.control.turnContext(run.turnId);
  const model = run.apply ? new ApplyProposal(run.apply) : await leaseModel(deps.models, profile.model_profile, run.turnId, client);
  const history: AgentMessage[] = pinnedHistory.map(({ seq: _seq, ...m }) => m as AgentMessage);
  const { workspace, ceilings } = deps.tools;
  // issue 28: a server's tools enter the ceiling here, at build; a changed tool list is a new authority (harness #19).
  const mcpTools = (await deps.mcp?.sessionTools(run.readOnly === true)) ?? [];
  const tools = sessionTools(deps, [...deps.offered, ...mcpTools], profile.execution_role, run.sessionId);
  const rules = deps.approvalRules && (await ruleSetForRun(deps.approvalRules.user, deps.tools.readText, run.readOnly === true));
  if (rules?.problem) deps.approvalRules?.log(`run ${run.turnId}: ${rules.problem}`);
  const builder = new AgentSessionBuilder()
    .sessionKey(run.sessionId)
    .model(model)
    .tools(tools)
    .memory(new JournalMemory(deps.control, run))
    .approval(new ClientApproval(client, deps.control, run, rules?.rules, deps.decisions, deps.tools.editText, deps.approvalRules?.log))
    .approveReads((deps.policy?.approveReads ?? false) || run.narrowing?.approveReads === true)
    // issue 27: the project instructions pinned at admission close the system prompt, so the prefix is
    // the same bytes turn after turn while the files are unchanged (saved KV state stays usable).
    // The mode's instructions come last: a mode switch changes only the end of the prefix.
    .systemPrompt(withMode(withInstructions(profile.system_prompt || defaultInstructions(workspace.canonicalPath), instructions), mode))
    .history(history)
    // issue 13: the session's condensed view, as journaled and pinned at admission (issue 23 item 9);
    // new views are journaled before use.
    .condensedView(viewFromJournal(condensation, pinnedHistory))
    .condensationStore(new JournalCondensations(deps.control, run.sessionId, run.turnId, pinnedHistory))
    .options(JSON.parse(profile.options_json) as GenerationOptions)
    .authorityInputs({
      workspacePath: workspace.canonicalPath,
      workspaceIdentity: { dev: String(workspace.dev), ino: String(workspace.ino) },
      ceilings: { ...ceilings },
    });
  // harness #19: the first turn pins the session's authority; a drifted resume fails closed.
  const pinned = deps.control.pinAuthority(run.sessionId, builder.authoritySnapshot().digests);
  const maxRounds = run.narrowing?.maxRounds ?? deps.policy?.maxRounds;
  if (maxRounds) builder.maxRounds(maxRounds);
  const repeatedFailureLimit = run.narrowing?.repeatedFailureLimit ?? deps.policy?.repeatedFailureLimit;
  if (repeatedFailureLimit) builder.repeatedFailureLimit(repeatedFailureLimit);
  const agent = builder.expectAuthority(pinned as ReturnType<typeof builder.authoritySnapshot>["digests"]).build();
  if (run.readOnly) agent.disableTools(tools.filter((t) => t.definition.effectClass !== "read").map((t) => t.definition.name));
  const only = run.narrowing?.tools;
  // The client's tool list names built-in tools; MCP tools are the person's servers, not in that list.
  const mcpNames = new Set(mcpTools.map((t) => t.definition.name));
  if (only)
    agent.disableTools(
      tools.filter((t) => !only.includes(t.definition.name) && !mcpNames.has(t.definition.name)).map((t) => t.definition.name),
    );
  // issue 27: a mode narrows the active subset (harness #5), never the ceiling: no authority drift on a switch.
  if (mode) {
    const offered = offeredByMode(
      mode,
      tools.map((t) => t.definition),
    );
    agent.disableTools(tools.map((t) => t.definition.name).filter((n) => !offered.has(n)));
  }
  deps.control.recordToolsOffered(run.turnId, {
    mode: mode?.name ?? DEFAULT_MODE,
    modeSource: mode?.source ?? "built-in",
    tools: agent.activeTools(),
  });
  return agent;
}

/**
 * The tools a session is offered, from persisted state only (control plane #18: the role owns agent-management
 * authority): the kernel's offered tools, narrowed to a task's ceiling, then the role's projection.
 */
function sessionTools(deps: SessionAgentDeps, offered: readonly Tool[], role: ExecutionRole, sessionId: string): Tool[] {
  const ceiling = deps.control.taskTools(sessionId);
  const withinCeiling = ceiling === null ? offered : offered.filter((t) => ceiling.includes(t.definition.name));
  return projectToolsForRole(
    role,
    withinCeiling.map((t) => ({ name: t.definition.name, tool: t })),
  ).map((t) => deps.bindToSession?.(t.tool, sessionId) ?? t.tool);
}

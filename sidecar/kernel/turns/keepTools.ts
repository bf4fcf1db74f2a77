// Issue 25 item 2: "Use the old tools for this chat". A session pinned under tools the kernel no longer
// offers (harness #19: its next turn fails closed) goes on with them by an explicit, journaled request,
// accepted only where the kernel can build exactly the pinned authority again: every pinned tool still
// exists here, the same folder, the same limits, the same definitions. Restricted Mode never widens
// the ceiling with a tool that writes or reaches the network: an untrusted folder only reads.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { AgentSessionBuilder } from "../../agent/index.js";
import type { Tool } from "../../agent/ports/tools.js";
import { authorityInputs, sessionTools, type SessionAgentDeps } from "./sessionAgent.js";

/** Keeps the session's pinned tools for its later turns; returns their names. */
export async function keepSessionTools(deps: SessionAgentDeps, sessionId: string, readOnly: boolean): Promise<string[]> {
  const pin = deps.control.authorityPin(sessionId);
  if (!pin)
    throw refused("the session has not run a turn yet, so it has no earlier tools; send your message: it runs with the tools offered now");
  if (!pin.toolNames)
    throw refused("its first turn ran before Hearth recorded which tools a session began with; start a new session to go on");
  const names = pin.toolNames;
  const mcpTools = (await deps.mcp?.sessionTools(readOnly)) ?? [];
  const role = deps.control.profile(sessionId).execution_role;
  const kept = sessionTools(deps, mcpTools, role, sessionId, names);
  if (readOnly) refuseWidening(kept, sessionTools(deps, mcpTools, role, sessionId, null));
  const missing = names.filter((n) => !kept.some((t) => t.definition.name === n));
  if (missing.length > 0)
    throw refused(
      `${list(missing)} ${missing.length === 1 ? "is" : "are"} not available in Hearth now (a setting that turns a tool on, ` +
        "such as web fetch, is off, or its MCP server is not running); turn it on again, or start a new session",
    );
  const digests = new AgentSessionBuilder().tools(kept).authorityInputs(authorityInputs(deps)).authoritySnapshot().digests;
  if (digests.workspace !== pin.digests.workspace)
    throw refused(
      "its workspace folder changed since its first turn (this path names another folder now), and a session works in " +
        "one folder only; start a new session here",
    );
  if (digests.ceilings !== pin.digests.ceilings)
    throw refused(
      "the limits of its tools (how much a tool may read or print, the shell's timeout) changed since its first turn; " +
        "set them back, or start a new session",
    );
  if (digests.authority !== pin.digests.authority)
    throw refused("this version of Hearth defines its tools differently than at its first turn; start a new session");
  deps.control.keepTools(sessionId, names, readOnly);
  return names;
}

/** Restricted Mode: a kept tool that the session would not get now must only read. */
function refuseWidening(kept: readonly Tool[], now: readonly Tool[]): void {
  const writing = kept
    .map((t) => t.definition)
    .filter((d) => d.effectClass !== "read" && !now.some((t) => t.definition.name === d.name))
    .map((d) => d.name);
  if (writing.length === 0) return;
  throw refused(
    `${list(writing)} ${writing.length === 1 ? "changes files or reaches beyond them" : "change files or reach beyond them"}, ` +
      "and the folder is not trusted (Restricted Mode), where Hearth only reads; trust the folder and ask again, or start a new session",
  );
}

function list(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(", ");
}

function refused(why: string): HearthError {
  return new HearthError(ErrorCode.Refused, `refused to keep the session's earlier tools: ${why}`);
}

// control plane #18: the execution role owns agent-management authority. Leaf sessions never see tools that
// create or continue agents, and the kernel rejects such calls from a leaf even when forged.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { ExecutionRole } from "../../../shared/protocol/records.js";

export const LEAF_RESTRICTED_TOOLS: ReadonlySet<string> = new Set(["spawn_agent", "delegate_task", "continue_agent", "send_agent_message"]);

/** The tool projection a session of `role` is offered. */
export function projectToolsForRole<T extends { name: string }>(role: ExecutionRole, tools: readonly T[]): T[] {
  return role === "leaf" ? tools.filter((t) => !LEAF_RESTRICTED_TOOLS.has(t.name)) : [...tools];
}

/** The independent kernel check, from the persisted role (never from the caller's projection). */
export function assertToolAllowedForRole(role: ExecutionRole, tool: string, sessionId: string): void {
  if (role === "leaf" && LEAF_RESTRICTED_TOOLS.has(tool)) {
    throw new HearthError(
      ErrorCode.Refused,
      `refused: session ${sessionId} is a leaf (a background task); it may not call \`${tool}\`, which creates or ` +
        `continues agents; ask the coordinating session to do it`,
    );
  }
}

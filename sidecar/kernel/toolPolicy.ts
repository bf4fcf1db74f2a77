// The kernel's tool policy: which of the workspace tools a session may be offered. The built set
// is the authority ceiling (harness #5); a policy can only narrow it, e.g. remove shell alone (#12).
import { ErrorCode, HearthError } from "../../shared/errors.js";
import type { Tool } from "../agent/ports/tools.js";

/** Parses a comma-separated allow-list such as HEARTH_TOOLS="read_file,list_dir". Unset: all tools; "none": none. */
export function applyToolPolicy(tools: readonly Tool[], allowList: string | undefined): readonly Tool[] {
  if (allowList === undefined || allowList.trim() === "") return tools;
  if (allowList.trim() === "none") return [];
  const names = allowList
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const known = new Set(tools.map((t) => t.definition.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new HearthError(
      ErrorCode.InvalidParams,
      `refused tool policy: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a tool" : "are not tools"} of ` +
        `this kernel; choose from ${[...known].join(", ")}`,
    );
  }
  return tools.filter((t) => names.includes(t.definition.name));
}

// How the CLI answers approval/request: a person at a TTY decides each call; without a TTY the
// --approve policy decides, and the default denies (harness #8: the default policy denies).
import fs from "node:fs";
import readline from "node:readline/promises";
import type { ServerRequestParams, ServerRequestResult } from "../../shared/protocol/index.js";

export type ApprovePolicy = "never" | "reads" | "all";
export const APPROVE_POLICIES: readonly ApprovePolicy[] = ["never", "reads", "all"];

type Request = ServerRequestParams<"approval/request">;
type Answer = ServerRequestResult<"approval/request">;

export function decideByPolicy(policy: ApprovePolicy, req: Request): Answer {
  if (policy === "all") return { decision: "approve", reason: "approved by --approve all", surface: "policy" };
  if (policy === "reads" && req.effectClass === "read")
    return { decision: "approve", reason: "approved by --approve reads (read-only tool)", surface: "policy" };
  return {
    decision: "deny",
    surface: "policy",
    reason: `denied by --approve ${policy}: no one at a terminal to ask; rerun with --approve reads|all to allow ${req.effectClass} tools`,
  };
}

function describe(req: Request): string {
  const preview = req.preview.kind === "diff" ? req.preview.diff : req.preview.text;
  return `\n[approval] ${req.call.name} (${req.effectClass}) ${JSON.stringify(req.call.arguments)}\n${preview}\n`;
}

/** Asks on the controlling terminal; falls back to the policy when there is none. */
export async function askPerson(req: Request, policy: ApprovePolicy, signal: AbortSignal): Promise<Answer> {
  if (!process.stdin.isTTY || !fs.existsSync("/dev/tty")) return decideByPolicy(policy, req);
  if (policy === "all" || (policy === "reads" && req.effectClass === "read")) return decideByPolicy(policy, req);
  process.stderr.write(describe(req));
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question("Allow this call? [y/N] ", { signal })).trim().toLowerCase();
    return answer === "y" || answer === "yes"
      ? { decision: "approve", reason: "approved at the terminal", surface: "terminal" }
      : { decision: "deny", reason: "denied at the terminal", surface: "terminal" };
  } finally {
    rl.close();
  }
}

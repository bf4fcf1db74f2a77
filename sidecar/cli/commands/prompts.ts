// `hearth prompts` (issue 27, item 3): the workspace's prompt files `hearth exec --prompt NAME` and
// the chat's `/name` run, with what each asks and, for one that cannot run, why.
import type { PromptList } from "../../../shared/protocol/prompts.js";
import { parseArgs, UsageError } from "../args.js";
import { withKernel } from "../connect.js";
import { ExitCode } from "../exitCodes.js";

export const promptsHelp = `hearth prompts [--workspace DIR] [--db FILE] [--json]

Lists the workspace's prompt files: .hearth/prompts/NAME.md, .github/prompts/NAME.prompt.md
(VS Code Copilot) and .claude/commands/NAME.md (Claude Code), each run as \`hearth exec --prompt
NAME ARGS\` or as /NAME in the chat. See docs/prompts.md.`;

export async function prompts(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "prompts");
  if (args.positionals.length > 0) throw new UsageError("takes no positional arguments");
  const list = await withKernel(args, (k) => k.request("prompts/list", {}));
  process.stdout.write(args.flags.has("json") ? JSON.stringify(list, null, 2) + "\n" : describe(list));
  return ExitCode.Ok;
}

function describe(l: PromptList): string {
  const rows = l.prompts.map((p) => {
    if (p.problem) return `  /${p.name.padEnd(16)} not usable: ${p.problem}`;
    const asks = p.inputs.length > 0 ? ` (asks ${p.inputs.map((i) => i.name).join(", ")})` : "";
    const mode = p.mode ? ` [${p.mode}]` : "";
    return `  /${p.name.padEnd(16)} ${p.description || "(no description)"}${mode}${asks} (${p.source})`;
  });
  if (rows.length === 0) rows.push("  no prompt files (add one as .hearth/prompts/NAME.md)");
  return [...rows, ...l.notes.map((n) => `  note: ${n}`), ""].join("\n");
}

// `hearth instructions [--off PATH | --on PATH]`: the project instructions the next turn is shown
// (issue 27, item 1): each instruction file and the person's own rules, its token cost and whether
// it was cut, and the switch that turns one off or on again (from the next turn).
import type { InstructionSource, InstructionsInForce } from "../../../shared/protocol/instructions.js";
import { flagString, parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const instructionsHelp = `hearth instructions [--workspace DIR] [--db FILE] [--json] [--off PATH | --on PATH]

Lists the instruction files the next turn is shown (AGENTS.md, CLAUDE.md, .clinerules, .roo/rules,
.continue/rules, .github/copilot-instructions.md, .cursorrules, AGENTS.md files in sub-folders) and
your own rules (hearth.instructions.personal), each with its estimated token cost.
--off PATH turns one off, --on PATH turns it on again; either applies from the next turn.`;

export async function instructions(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false, off: true, on: true }, "instructions");
  const off = flagString(args, "off");
  const on = flagString(args, "on");
  if (args.positionals.length > 0) throw new UsageError("takes no positional arguments; switch a source with --off PATH or --on PATH");
  if (off !== undefined && on !== undefined) throw new UsageError("give --off or --on, not both");
  const path = off ?? on;
  const result = await withKernel(args, (k) =>
    path === undefined ? k.request("instructions/list", {}) : k.request("instructions/set", { path, enabled: on !== undefined }),
  );
  process.stdout.write(args.flags.has("json") ? JSON.stringify(result, null, 2) + "\n" : describe(result));
  return ExitCode.Ok;
}

function describe(r: InstructionsInForce): string {
  if (r.sources.length === 0) return "no instruction files in this workspace, and no personal rules\n";
  const lines = r.sources.map((s) => `  ${s.enabled ? "on " : "off"}  ${s.path.padEnd(36)} ${state(s)}`);
  return [
    `instructions the next turn is shown: about ${r.tokens} tokens in all (bounds: ${r.bounds.perFileBytes} bytes a file, ${r.bounds.totalBytes} in all)`,
    ...lines,
    ...r.notes.map((n) => `  note: ${n}`),
    "",
  ].join("\n");
}

function state(s: InstructionSource): string {
  if (!s.enabled) return "turned off";
  if (s.problem) return s.problem;
  const scope = s.scope ? `, for files under ${s.scope}/` : "";
  const cut =
    s.cut === "file"
      ? `, cut to ${s.shownBytes} of ${s.bytes} bytes (the bound per file)`
      : s.cut === "total"
        ? s.shownBytes === 0
          ? ", left out (the bound on all instructions was reached)"
          : `, cut to ${s.shownBytes} of ${s.bytes} bytes (the bound on all instructions)`
        : "";
  return `~${s.tokens} tokens${scope}${cut}`;
}

// `hearth modes [--import-roomodes]` (issue 27, item 2): the modes `hearth exec --mode` and the
// composer offer, with the tools each offers and the mode files not read; --import-roomodes writes
// Roo Code's .roomodes as .hearth/modes files.
import type { ModeImport, ModeList } from "../../../shared/protocol/modes.js";
import { parseArgs, UsageError } from "../args.js";
import { withKernel } from "../connect.js";
import { ExitCode } from "../exitCodes.js";

export const modesHelp = `hearth modes [--workspace DIR] [--db FILE] [--json] [--import-roomodes]

Lists the modes a turn can run in (hearth exec --mode NAME): code, ask, plan, and the workspace's
own, one .hearth/modes/NAME.md each (front matter: name, description, tools; then its instructions).
A mode only narrows the tools a session offers. See docs/modes.md.
--import-roomodes  writes each custom mode of the workspace's .roomodes (Roo Code) as
                   .hearth/modes/SLUG.md; a file that exists is kept.`;

export async function modes(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false, "import-roomodes": false }, "modes");
  if (args.positionals.length > 0) throw new UsageError("takes no positional arguments");
  const json = args.flags.has("json");
  if (args.flags.has("import-roomodes")) {
    const done = await withKernel(args, (k) => k.request("modes/import", {}));
    process.stdout.write(json ? JSON.stringify(done, null, 2) + "\n" : describeImport(done));
    return ExitCode.Ok;
  }
  const list = await withKernel(args, (k) => k.request("modes/list", {}));
  process.stdout.write(json ? JSON.stringify(list, null, 2) + "\n" : describe(list));
  return ExitCode.Ok;
}

function describe(l: ModeList): string {
  return [
    ...l.modes.map((m) => `  ${m.name.padEnd(14)} ${m.tools.join(", ").padEnd(22)} ${m.description} (${m.source})`),
    ...l.problems.map((p) => `  not read: ${p}`),
    "",
  ].join("\n");
}

function describeImport(d: ModeImport): string {
  const head = d.written.length === 0 ? "no mode written" : `wrote ${d.written.join(", ")}`;
  return [head, ...d.notes.map((n) => `  note: ${n}`), ""].join("\n");
}

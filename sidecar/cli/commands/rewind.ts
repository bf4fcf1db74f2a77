// `hearth rewind SESSION_ID --to N`: the CLI's side of the chat's rewind (issue 29 item 1). Without
// --scope it shows what each choice would do and changes nothing; with --scope it shows that choice
// and asks on a terminal (or needs --yes) before acting. `hearth rewind --undo REWIND_ID` undoes one.
import readline from "node:readline/promises";
import type { RequestResult } from "../../../shared/protocol/index.js";
import { RewindScope } from "../../../shared/protocol/rewind.js";
import { flagString, parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const rewindHelp = `hearth rewind [--workspace DIR] [--db FILE] [--json] SESSION_ID --to N [--scope conversation|files|both] [--yes]
hearth rewind [--workspace DIR] [--db FILE] [--json] --undo REWIND_ID

Goes back to the user message #N of a session (\`hearth show SESSION_ID\` lists messages with their #):
  conversation  that message and every later one leave the model's view (the journal keeps them)
  files         every file the turns from #N on wrote goes back to its bytes before them; a file
                changed since is refused alone, with the reason, and left as it is
  both          the two together
Without --scope it shows what each choice would do and changes nothing. With --scope it shows that
choice, then asks on the terminal (--yes answers yes). Refused while a turn of the session runs.
Every rewind is journaled and can be undone with --undo and the id it prints.`;

type Preview = RequestResult<"session/rewindPreview">;

export async function rewind(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false, to: true, scope: true, yes: false, undo: true }, "rewind");
  const json = args.flags.has("json");
  const undo = flagString(args, "undo");
  if (undo !== undefined) {
    if (args.positionals.length > 0 || args.flags.has("to") || args.flags.has("scope"))
      throw new UsageError("--undo takes only the rewind's id; see `hearth rewind --help`");
    const result = await withKernel(args, (k) => k.request("session/undoRewind", { rewindId: undo }));
    process.stdout.write(json ? JSON.stringify(result, null, 2) + "\n" : renderFiles(`rewind ${undo} undone`, result.files));
    return result.files.some((f) => f.outcome === "refused") ? ExitCode.Failed : ExitCode.Ok;
  }
  const [sessionId, ...extra] = args.positionals;
  if (!sessionId || extra.length > 0) throw new UsageError("give exactly one SESSION_ID; list them with `hearth sessions`");
  const toSeq = Number(flagString(args, "to"));
  if (!Number.isInteger(toSeq) || toSeq < 1)
    throw new UsageError("give the user message to go back to as --to N (its # in `hearth show SESSION_ID`)");
  const scopeText = flagString(args, "scope");
  const scope = scopeText === undefined ? undefined : RewindScope.safeParse(scopeText);
  if (scope && !scope.success) throw new UsageError(`--scope is conversation, files or both, not ${JSON.stringify(scopeText)}`);
  return withKernel(args, async (k) => {
    const preview = await k.request("session/rewindPreview", { sessionId, toSeq });
    if (!scope) {
      process.stdout.write(json ? JSON.stringify(preview, null, 2) + "\n" : renderPreview(preview));
      return ExitCode.Ok;
    }
    if (!json) process.stdout.write(renderPreview(preview, scope.data));
    if (!args.flags.has("yes") && !(await confirmed(scope.data))) {
      process.stderr.write("nothing was rewound: not confirmed (answer y, or pass --yes)\n");
      return ExitCode.Failed;
    }
    const done = await k.request("session/rewind", { sessionId, toSeq, scope: scope.data });
    process.stdout.write(
      json
        ? JSON.stringify(done, null, 2) + "\n"
        : renderFiles(
            `rewound to #${toSeq} (${done.scope}) as rewind ${done.rewindId}; undo it with \`hearth rewind --undo ${done.rewindId}\``,
            done.files,
          ),
    );
    return done.files.some((f) => f.outcome === "refused") ? ExitCode.Failed : ExitCode.Ok;
  });
}

function renderPreview(p: Preview, only?: RewindScope): string {
  const c = p.conversation;
  const out: string[] = [];
  if (only !== "files")
    out.push(
      `conversation: #${c.fromSeq} to #${c.throughSeq} (${c.messages} message${c.messages === 1 ? "" : "s"}, ${c.turns} turn${c.turns === 1 ? "" : "s"}) would leave the model's view; the journal keeps them`,
    );
  if (only !== "conversation") {
    if (p.files.length === 0) out.push("files: the turns from here on wrote no files with write_file or edit_file");
    else out.push("files:", ...p.files.map((f) => `  ${f.outcome.padEnd(9)} ${f.path}: ${f.message}`));
  }
  return out.join("\n") + "\n";
}

function renderFiles(head: string, files: readonly { path: string; outcome: string; message: string }[]): string {
  return [head, ...files.map((f) => `  ${f.outcome.padEnd(9)} ${f.path}: ${f.message}`)].join("\n") + "\n";
}

async function confirmed(scope: RewindScope): Promise<boolean> {
  if (!process.stdin.isTTY) throw new UsageError("pass --yes to rewind when there is no terminal to ask on");
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Rewind the ${scope === "both" ? "conversation and the files" : scope}? It can be undone. [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

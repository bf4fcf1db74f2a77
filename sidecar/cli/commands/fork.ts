// `hearth fork SESSION_ID --at N`: the CLI's side of the chat's Fork (issue 29 item 2). It makes the
// new session and prints the forked message, to send again (edited or not) with `hearth exec --session`.
import { flagString, parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const forkHelp = `hearth fork [--workspace DIR] [--db FILE] [--json] SESSION_ID --at N

Makes a new session whose history is what SESSION_ID's model sees before its user message #N
(\`hearth show SESSION_ID\` lists messages with their #). The original is left as it is. The message
#N is not sent: it is printed, to send as the fork's first turn, as it is or changed, with
  hearth exec --session NEW_SESSION_ID "..."
The fork is a new session: its turns use today's tools and rules, not those the original pinned.
To fork into a background task instead: hearth task start --fork SESSION_ID --at N [INSTRUCTION]`;

export async function fork(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false, at: true }, "fork");
  const [sessionId, ...extra] = args.positionals;
  if (!sessionId || extra.length > 0) throw new UsageError("give exactly one SESSION_ID; list them with `hearth sessions`");
  const atSeq = Number(flagString(args, "at"));
  if (!Number.isInteger(atSeq) || atSeq < 1)
    throw new UsageError("give the user message to fork at as --at N (its # in `hearth show SESSION_ID`)");
  const result = await withKernel(args, (k) => k.request("session/fork", { sessionId, atSeq }));
  if (args.flags.has("json")) {
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return ExitCode.Ok;
  }
  const id = result.session.sessionId;
  process.stdout.write(
    `forked ${sessionId} at #${atSeq} into session ${id} (${result.copied} message${result.copied === 1 ? "" : "s"} of history)\n` +
      `message #${atSeq}, not sent:\n${result.draft.replace(/^/gm, "  ")}\n` +
      `send it (or a changed one) with: hearth exec --session ${id} "..."\n`,
  );
  return ExitCode.Ok;
}

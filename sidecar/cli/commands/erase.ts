// `hearth erase SESSION_ID`: the CLI's side of the chat view's Erase (issue 15). Irreversible, so it
// asks on a terminal (typing the session id) or needs --yes; refused by the kernel while a turn runs.
import readline from "node:readline/promises";
import { parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const eraseHelp = `hearth erase [--workspace DIR] [--db FILE] [--yes] [--json] SESSION_ID

Erases a session for good: its messages, attachments, summaries, tool inputs and results and the kept
pre-images of files it wrote leave the journal; it can no longer be shown, continued or undone. This
cannot be reversed. Without --yes it asks you to type the session id on the terminal. Refused while
a turn of the session runs. (The chat view's Delete only hides a chat; this erases it.)`;

export async function erase(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, yes: false, json: false }, "erase");
  const [sessionId, ...extra] = args.positionals;
  if (!sessionId || extra.length > 0) throw new UsageError("give exactly one SESSION_ID; list them with `hearth sessions`");
  if (!args.flags.has("yes") && !(await confirmed(sessionId))) {
    process.stderr.write(`session ${sessionId} was not erased: not confirmed (type the session id, or pass --yes)\n`);
    return ExitCode.Failed;
  }
  const result = await withKernel(args, (k) => k.request("session/erase", { sessionId }));
  if (args.flags.has("json")) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  else process.stdout.write(`session ${sessionId} erased: ${result.messages} messages removed from the journal; this cannot be undone\n`);
  return ExitCode.Ok;
}

async function confirmed(sessionId: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new UsageError("erasing cannot be undone: pass --yes to confirm when there is no terminal to ask on");
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Erase session ${sessionId} for good? Its messages cannot be recovered. Type its id to confirm: `);
    return answer.trim() === sessionId;
  } finally {
    rl.close();
  }
}

// `hearth compact SESSION_ID`: condenses a session now (issue 13): every turn but the last becomes
// one summary the model sees instead; the messages themselves stay in the journal (`hearth show`).
import { parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const compactHelp = `hearth compact [--workspace DIR] [--db FILE] [--json] SESSION_ID

Condenses a session's older turns into one summary written by its model, journaled as its own event.
The model sees the summary and the last turn from then on; \`hearth show\` still shows every message.`;

export async function compact(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "compact");
  const [sessionId, ...extra] = args.positionals;
  if (!sessionId || extra.length > 0) throw new UsageError("give exactly one SESSION_ID; list them with `hearth sessions`");
  const { condensation: c } = await withKernel(args, (k) => k.request("session/compact", { sessionId }));
  if (args.flags.has("json")) process.stdout.write(JSON.stringify(c, null, 2) + "\n");
  else if (!c) process.stdout.write(`session ${sessionId}: nothing older than its last turn to condense\n`);
  else
    process.stdout.write(
      `session ${sessionId}: messages #${c.fromSeq}–#${c.throughSeq} condensed into one summary; the prompt went ` +
        `from ${c.tokensBefore} to ${c.tokensAfter} tokens\n`,
    );
  return ExitCode.Ok;
}

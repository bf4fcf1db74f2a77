// `hearth sessions`: the sessions in a journal, newest first.
import { parseArgs } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const sessionsHelp = `hearth sessions [--workspace DIR] [--db FILE] [--json]

Lists the sessions in the workspace's journal (or --db FILE), newest first: id, role, adapter,
model, last update, the active run if one is running, and where a fork came from.`;

export async function sessions(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "sessions");
  const { sessions } = await withKernel(args, (c) => c.request("session/list", { limit: 1000 }));
  if (args.flags.has("json")) {
    process.stdout.write(JSON.stringify({ sessions }, null, 2) + "\n");
    return ExitCode.Ok;
  }
  if (sessions.length === 0) process.stdout.write("no sessions in this journal\n");
  for (const s of sessions) {
    process.stdout.write(
      `${s.sessionId}  ${s.role.padEnd(11)} ${s.adapter.padEnd(8)} ${s.updatedAt}  ` +
        `${s.activeTurnId ? `active run ${s.activeTurnId}  ` : ""}${s.title || "(untitled)"}${s.model ? `  [${s.model}]` : ""}` +
        `${s.forkedFrom ? `  (forked from ${s.forkedFrom.title || s.forkedFrom.sessionId} at #${s.forkedFrom.atSeq})` : ""}\n`,
    );
  }
  return ExitCode.Ok;
}

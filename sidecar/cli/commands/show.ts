// `hearth show SESSION_ID`: one session's history with its runs, attempts and tool ledger.
import type { RequestResult } from "../../../shared/protocol/index.js";
import { parseArgs, UsageError } from "../args.js";
import { ExitCode } from "../exitCodes.js";
import { withKernel } from "../connect.js";

export const showHelp = `hearth show [--workspace DIR] [--db FILE] [--json] SESSION_ID

Shows a session's conversation in journal order, then each run with its attempts (status and
reason) and its tool ledger rows (call, tool, status, effect class, retry policy), who started
each run, the answer text a cancelled or failed run streamed that the conversation does not hold,
and every approval decision: who decided (client kind and id), where and when. Rewinds
are listed with the messages they took out of the model's view (\`hearth rewind\`).`;

type History = RequestResult<"session/history">;

function render(h: History): string {
  const out: string[] = [];
  const s = h.session;
  out.push(`session ${s.sessionId}  ${s.role}  ${s.adapter}${s.model ? ` [${s.model}]` : ""}  ${s.title || "(untitled)"}`);
  out.push("", "messages:");
  for (const m of h.messages) {
    if (m.role === "tool") out.push(`  #${m.seq} tool ${m.name} (${m.callId}) ${m.ok ? "ok" : "error"}: ${m.output}`);
    else if (m.role === "assistant") {
      out.push(`  #${m.seq} assistant: ${m.text}`);
      for (const c of m.toolCalls) out.push(`      calls ${c.name} (${c.callId}) ${JSON.stringify(c.arguments)}`);
    } else out.push(`  #${m.seq} ${m.role}: ${m.text}`);
  }
  // issue 29: the messages a rewind took out of the model's view stay listed above; here is which.
  if (h.rewinds?.length) {
    out.push("", "rewinds:");
    for (const r of h.rewinds)
      out.push(
        `  rewind ${r.rewindId} ${r.scope} #${r.fromSeq}..#${r.throughSeq} at ${r.createdAt}${r.undoneAt ? `, undone at ${r.undoneAt}` : ""}`,
        ...r.files.map((f) => `    ${f.outcome} ${f.path}: ${f.message}`),
      );
  }
  out.push("", "turns:");
  for (const r of h.runs) {
    out.push(`  run ${r.turnId} ${r.status} (started ${r.startedAt})`);
    for (const a of r.attempts) out.push(`    attempt ${a.attemptId} ${a.status}${a.reason ? ` (${a.reason})` : ""}`);
    // issue 25 item 11: what the run streamed and never committed (the model never sees it).
    if (r.ending?.unfinishedAnswer) out.push(`    unfinished answer (not in the conversation): ${r.ending.unfinishedAnswer}`);
    if (r.ending?.stoppedAtTokenCap) out.push("    the answer stopped at the token cap");
    const origin = h.origins?.find((o) => o.turnId === r.turnId);
    if (origin)
      out.push(
        `    started by ${origin.kind}${origin.clientId ? ` ${origin.clientId}` : ""}${origin.readOnly ? " (read-only: Restricted Mode)" : ""}`,
      );
    for (const l of r.ledger)
      out.push(`    tool ${l.tool} call ${l.callId} ${l.status} [${l.effectClass}, ${l.retryPolicy}]${l.reason ? ` (${l.reason})` : ""}`);
    // issue 24: every approval decision, who made it and where.
    for (const d of h.decisions?.filter((x) => x.turnId === r.turnId) ?? [])
      out.push(
        `    ${d.decision === "approve" ? "approved" : "denied"} ${d.tool} call ${d.callId} by ${d.decidedBy.kind} ${d.decidedBy.clientId} ` +
          `(${d.surface}) at ${d.decidedAt}: ${d.reason}`,
      );
  }
  return out.join("\n") + "\n";
}

export async function show(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "show");
  const [sessionId, ...extra] = args.positionals;
  if (!sessionId || extra.length > 0) throw new UsageError("give exactly one SESSION_ID; list them with `hearth sessions`");
  const history = await withKernel(args, (c) => c.request("session/history", { sessionId }));
  process.stdout.write(args.flags.has("json") ? JSON.stringify(history, null, 2) + "\n" : render(history));
  return ExitCode.Ok;
}

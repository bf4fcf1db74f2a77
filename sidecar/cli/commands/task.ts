// `hearth task start|show|cancel|resume|dismiss` and `hearth tasks`: background tasks of the
// workspace's kernel (issue 12), through the same protocol the editor's Tasks view uses.
import type { TaskSummary } from "../../../shared/protocol/index.js";
import { flagString, parseArgs, UsageError, type ParsedArgs } from "../args.js";
import { withKernel } from "../connect.js";
import { ExitCode } from "../exitCodes.js";

export const taskHelp = `hearth task start [--workspace DIR] [--db FILE] [--model SPEC] [--title T] [--tools a,b] [--json] INSTRUCTION
hearth task start --fork SESSION_ID --at N [options] [INSTRUCTION]
hearth task show|cancel|resume|dismiss|approve|deny [--workspace DIR] [--db FILE] [--json] TASK_ID

Background tasks run in the workspace's kernel beside chats, without a terminal or window attached.
  start     queue a task (a leaf session in its own workstream); prints its id and state
            --model SPEC  default $HEARTH_MODEL;  --tools a,b  a subset of the kernel's tools
            --fork SESSION_ID --at N  the task starts with the history SESSION_ID's model sees
            before its user message #N (\`hearth show\` lists the #), on that chat's model; its
            instruction is message #N unless INSTRUCTION is given. The chat is left as it was
  show      the task's state, its reason, and its result once completed
  cancel    cancel a queued, running or orphaned task (truthful, as turn/cancel)
  resume    start a new run of an orphaned task (the kernel stopped under it); calls whose
            outcome is unknown are never re-run by the kernel
  dismiss   end an orphaned task without resuming it
  approve   allow the call the task waits for (you decide, at this terminal); journaled as yours
  deny      refuse it; the task goes on without it
Approvals a task asks for go to the editor's windows and to \`hearth task approve|deny\`, never to
a non-interactive policy (\`hearth exec --approve\` answers only its own run); a task waits for a person.
A task started from a window in Restricted Mode is read-only for its life (shown in \`hearth tasks\`).
Exit codes: 0 done, 1 refused or failed, 2 usage, 4 kernel error.`;

export const tasksHelp = `hearth tasks [--workspace DIR] [--db FILE] [--json]

Lists the workspace's background tasks, newest first: id, state, title, and why it ended.`;

const SUBCOMMANDS = ["start", "show", "cancel", "resume", "dismiss", "approve", "deny"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function line(t: TaskSummary): string {
  const readOnly = t.readOnly ? "  [read-only (started in Restricted Mode)]" : "";
  return `${t.taskId}  ${t.state.padEnd(16)} ${t.updatedAt}  ${t.title}${readOnly}${t.reason ? `  (${t.reason})` : ""}\n`;
}

function print(args: ParsedArgs, value: unknown, human: string): number {
  process.stdout.write(args.flags.has("json") ? JSON.stringify(value, null, 2) + "\n" : human);
  return ExitCode.Ok;
}

export async function tasks(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, json: false }, "tasks");
  if (args.positionals.length > 0) throw new UsageError("`hearth tasks` takes no arguments; see `hearth task --help` for one task");
  const { tasks: list } = await withKernel(args, (c) => c.request("task/list", { limit: 1000 }));
  return print(args, { tasks: list }, list.length === 0 ? "no background tasks in this workspace\n" : list.map(line).join(""));
}

export async function task(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!SUBCOMMANDS.includes(sub as Subcommand))
    throw new UsageError(`\`hearth task\` needs one of ${SUBCOMMANDS.join(", ")}; see \`hearth task --help\``);
  if (sub === "start") return start(rest);
  const args = parseArgs(rest, { workspace: true, db: true, json: false }, `task ${sub}`);
  const [taskId, ...extra] = args.positionals;
  if (!taskId || extra.length > 0) throw new UsageError(`give exactly one TASK_ID; list them with \`hearth tasks\``);
  switch (sub as Exclude<Subcommand, "start">) {
    case "show": {
      const shown = await withKernel(args, (c) => c.request("task/show", { taskId }));
      return print(
        args,
        shown,
        line(shown.task) +
          `session ${shown.task.sessionId} (\`hearth show ${shown.task.sessionId}\` for its transcript)\n` +
          (shown.result === null ? "" : `\n${shown.result}\n`),
      );
    }
    case "cancel": {
      const r = await withKernel(args, (c) => c.request("task/cancel", { taskId }));
      return print(
        args,
        r,
        line(r.task) +
          `cancel dispatched to the model: ${r.dispatchAttempted ? "yes" : "no"}; acknowledged: ${r.adapterAcknowledged ? "yes" : "no"}\n`,
      );
    }
    case "resume": {
      const r = await withKernel(args, (c) => c.request("task/resume", { taskId }));
      return print(args, r, line(r.task));
    }
    case "dismiss": {
      const r = await withKernel(args, (c) => c.request("task/dismiss", { taskId }));
      return print(args, r, line(r.task));
    }
    case "approve":
    case "deny": {
      const decision = sub === "approve" ? "approve" : "deny";
      const r = await withKernel(args, (c) => c.request("task/answer", { taskId, decision }));
      if (!r.answered && !args.flags.has("json")) {
        process.stderr.write(
          `hearth task ${sub}: task ${taskId} waits for no approval now; see its state with \`hearth task show ${taskId}\`\n`,
        );
        return ExitCode.Failed;
      }
      return print(args, r, `${decision === "approve" ? "approved" : "denied"} call ${r.callId} of task ${taskId}\n`);
    }
  }
}

async function start(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    { workspace: true, db: true, model: true, title: true, tools: true, fork: true, at: true, json: false },
    "task start",
  );
  const instruction = args.positionals.join(" ").trim();
  const forkOf = forkPointOf(args);
  if (!instruction && !forkOf)
    throw new UsageError('missing INSTRUCTION: say what the task should do, e.g. `hearth task start "add tests for the parser"`');
  // A forked task runs on its chat's model unless --model says otherwise.
  const model = flagString(args, "model") ?? (forkOf ? undefined : process.env.HEARTH_MODEL);
  const tools = flagString(args, "tools")
    ?.split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const title = flagString(args, "title");
  const r = await withKernel(args, (c) =>
    c.request("task/start", {
      ...(instruction ? { instruction } : {}),
      ...(title ? { title } : {}),
      ...(model ? { model } : {}),
      ...(tools ? { tools } : {}),
      ...(forkOf ? { forkOf } : {}),
    }),
  );
  return print(args, r, line(r.task));
}

/** `--fork SESSION_ID --at N`, both or neither. */
function forkPointOf(args: ParsedArgs): { sessionId: string; atSeq: number } | undefined {
  const sessionId = flagString(args, "fork");
  const at = flagString(args, "at");
  if (sessionId === undefined && at === undefined) return undefined;
  const atSeq = Number(at);
  if (!sessionId || !Number.isInteger(atSeq) || atSeq < 1)
    throw new UsageError("a forked task needs both --fork SESSION_ID and --at N (the user message's # in `hearth show SESSION_ID`)");
  return { sessionId, atSeq };
}

// `hearth exec`: runs one agent turn in a workspace through a real kernel and streams it.
import type { TurnEvent } from "../../../shared/protocol/index.js";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import { APPROVE_POLICIES, askPerson, type ApprovePolicy } from "../approvalPrompt.js";
import { flagString, flagStrings, parseArgs, UsageError } from "../args.js";
import { connectKernel, type CliKernel } from "../connect.js";
import { ExitCode } from "../exitCodes.js";
import { errorMessage } from "../../../shared/errors.js";
import { IMPLEMENT_MODE, implementPlanMessage, latestAnswer } from "../../../shared/implementPlan.js";

export const execHelp = `hearth exec [--workspace DIR] [--db FILE] [--model SPEC] [--approve never|reads|all]
            [--session ID] [--mode NAME] [--implement] [--json] PROMPT
       hearth exec [options] --prompt NAME [ARGS]

Runs one agent turn in the workspace (default: the current directory) and streams it.
  --model SPEC     a GGUF path, an hf: URI, openai:URL#model, or scripted:FILE
                   (scripted needs HEARTH_ALLOW_SCRIPTED=1); default $HEARTH_MODEL. With
                   --session it must be that session's model: a different model is a new session
  --approve        who answers tool approvals without a terminal: never (default: deny all),
                   reads (allow read-only tools), all (allow everything); it answers only
                   this run's calls, never a background task's (\`hearth task approve|deny\`)
  --session ID     continue an existing session instead of creating one
  --mode NAME      code (default), ask (reads, changes nothing), plan (reads, answers with a
                   checklist), or a mode of .hearth/modes/NAME.md; it narrows the tools offered.
  --implement      with --session: implement the session's last answer (a Plan-mode checklist) in
                   Code mode; PROMPT, when given, is the plan as you edited it
  --prompt NAME    send the workspace's prompt file NAME (\`hearth prompts\` lists them) with
                   ARGS as its arguments, in the mode the file names unless --mode is given
  --input K=V      with --prompt: the answer to its \${input:K} question (once per question);
                   a file that uses the editor's \${selection} or \${file} is run from the chat
  --db FILE        the journal (default: one per workspace under ~/.local/share/hearth)
  --json           print every turn event as one JSON line on stdout
Exit codes: 0 completed, 1 failed, 2 usage, 4 kernel error, 130 cancelled.`;

function printHuman(event: TurnEvent): void {
  switch (event.type) {
    case "answer_delta":
      process.stdout.write(event.text);
      break;
    case "reasoning_delta":
      process.stderr.write(`\x1b[2m${event.text}\x1b[0m`);
      break;
    case "tool_call":
      process.stderr.write(`\n→ ${event.call.name} ${JSON.stringify(event.call.arguments)}\n`);
      break;
    case "tool_call_started":
    case "tool_call_args":
      break; // the call is printed whole once its arguments are complete
    case "tool_result":
      process.stderr.write(`${event.ok ? "✓" : "✗"} ${event.name}: ${event.output.split("\n")[0]!.slice(0, 200)}\n`);
      break;
    case "completed":
      process.stdout.write("\n");
      if (event.error) process.stderr.write(`turn ${event.status}: ${event.error.message}\n`);
      if (event.context) process.stderr.write(`context ${event.context.usedTokens} of ${event.context.contextSize} tokens\n`);
      break;
    case "status":
      break;
  }
}

/**
 * A session's execution profile never changes (docs/control-plane.md: a different model is a new
 * session), so `--model` with `--session` is checked, never ignored (issue 23, item 5).
 */
async function refuseOtherModel(kernel: CliKernel, sessionId: string, model: string): Promise<void> {
  const { session } = await kernel.unlessGone(kernel.client.request("session/history", { sessionId }));
  if (session.model === model) return;
  throw new UsageError(
    `refused --model ${model} with --session ${sessionId}: the session keeps the model it was created with ` +
      `(${session.model || "the kernel's default"}); a different model is a new session. To continue this session, drop --model; ` +
      "to use that model, drop --session and start a new one",
  );
}

/** Checked before a session is created for the turn, so a mistyped mode leaves no empty session behind. */
async function refuseUnknownMode(kernel: CliKernel, mode: string): Promise<void> {
  const { modes, problems } = await kernel.unlessGone(kernel.client.request("modes/list", {}));
  if (modes.some((m) => m.name === mode)) return;
  const skipped = problems.length > 0 ? `; not read: ${problems.join("; ")}` : "";
  throw new UsageError(
    `--mode ${mode} is not one of this workspace's modes (${modes.map((m) => m.name).join(", ")}); add it as .hearth/modes/${mode}.md${skipped}`,
  );
}

async function planOf(kernel: CliKernel, sessionId: string): Promise<string> {
  const { messages } = await kernel.unlessGone(kernel.client.request("session/history", { sessionId }));
  const plan = latestAnswer(messages);
  if (plan === null)
    throw new UsageError(
      `--implement: session ${sessionId} has no answer to implement; ask for a plan first (--mode plan), or give the plan as PROMPT`,
    );
  return plan;
}

/** `--input K=V` answers, by question; each is checked here so a typo is a usage error, not a sent prompt. */
function promptInputs(given: string[], promptFile: string | undefined): Record<string, string> {
  if (given.length > 0 && promptFile === undefined)
    throw new UsageError("--input answers a prompt file's question: pass --prompt NAME too");
  const inputs: Record<string, string> = {};
  for (const g of given) {
    const eq = g.indexOf("=");
    if (eq <= 0) throw new UsageError(`--input ${g}: write NAME=VALUE, the NAME of the file's \${input:NAME}`);
    const name = g.slice(0, eq);
    if (Object.hasOwn(inputs, name)) throw new UsageError(`--input ${name} is given twice; give each question one answer`);
    inputs[name] = g.slice(eq + 1);
  }
  return inputs;
}

export async function exec(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    {
      workspace: true,
      db: true,
      model: true,
      approve: true,
      session: true,
      mode: true,
      implement: false,
      json: false,
      prompt: true,
      input: "many",
    },
    "exec",
  );
  const prompt = args.positionals.join(" ").trim();
  const implement = args.flags.has("implement");
  if (implement && (!flagString(args, "session") || (flagString(args, "mode") ?? IMPLEMENT_MODE) !== IMPLEMENT_MODE))
    throw new UsageError("--implement continues a plan's session in Code mode: pass --session ID (the plan's), and no other --mode");
  const promptFile = flagString(args, "prompt");
  if (promptFile !== undefined && implement) throw new UsageError("--prompt and --implement each say what to send: pass one of them");
  const inputs = promptInputs(flagStrings(args, "input"), promptFile);
  if (!prompt && !implement && promptFile === undefined)
    throw new UsageError('missing PROMPT: say what the agent should do, e.g. `hearth exec "list the files"`');
  const policy = (flagString(args, "approve") ?? "never") as ApprovePolicy;
  if (!APPROVE_POLICIES.includes(policy)) throw new UsageError(`--approve ${policy} is not one of ${APPROVE_POLICIES.join(", ")}`);
  const sessionArg = flagString(args, "session");
  const modelArg = flagString(args, "model");
  const model = modelArg ?? process.env.HEARTH_MODEL;
  if (!sessionArg && !model) throw new UsageError("no model: pass --model SPEC or set HEARTH_MODEL (see `hearth exec --help`)");
  const json = args.flags.has("json");

  const kernel = await connectKernel(args);
  try {
    if (sessionArg && modelArg !== undefined) await refuseOtherModel(kernel, sessionArg, modelArg);
    // issue 27, item 3: the kernel expands the file, as for the chat's `/name args`.
    const expanded =
      promptFile === undefined
        ? undefined
        : await kernel.unlessGone(kernel.client.request("prompts/expand", { name: promptFile, args: prompt, inputs }));
    const mode = implement ? IMPLEMENT_MODE : (flagString(args, "mode") ?? expanded?.mode ?? undefined);
    if (mode !== undefined) await refuseUnknownMode(kernel, mode);
    const sessionId =
      sessionArg ??
      (await kernel.unlessGone(kernel.client.request("session/create", { model, title: (expanded?.text ?? prompt).slice(0, 80) })))
        .sessionId;
    // --approve answers only this command's own run (issue 24); the kernel asks it for nothing else.
    let ownTurn: string | undefined;
    kernel.client.onServerRequest("approval/request", async (req, signal) =>
      req.taskId === undefined && req.sessionId === sessionId && (ownTurn === undefined || req.turnId === ownTurn)
        ? askPerson(req, policy, signal)
        : {
            decision: "deny",
            reason: `denied: hearth exec answers only its own run's calls (run ${ownTurn ?? "not started"})`,
            surface: "rule",
          },
    );
    type Ended = Extract<TurnEvent, { type: "completed" }>["status"];
    let finished!: (status: Ended) => void;
    const done = new Promise<Ended>((r) => {
      finished = r;
    });
    kernel.client.onNotification("turn/event", (n) => {
      if (n.sessionId !== sessionId) return;
      if (json) process.stdout.write(JSON.stringify(n) + "\n");
      else printHuman(n.event);
      if (n.event.type === "completed") finished(n.event.status);
    });
    const message = expanded ? expanded.text : implement ? implementPlanMessage(prompt || (await planOf(kernel, sessionId))) : prompt;
    const { turnId } = await kernel.unlessGone(
      kernel.client.request("turn/start", { sessionId, message, ...(mode === undefined ? {} : { mode }) }),
    );
    ownTurn = turnId;
    let interrupts = 0;
    const onSigint = () => {
      if (++interrupts > 1) process.exit(ExitCode.Cancelled);
      process.stderr.write("\ncancelling… (Ctrl-C again to leave at once)\n");
      void kernel.client.request("turn/cancel", { turnId }).catch(() => {});
    };
    process.on("SIGINT", onSigint);
    const died = kernel.closed.then(() => {
      throw new Error(
        `the kernel (pid ${kernel.info.kernelPid}) closed the connection during the turn; \`hearth show ${sessionId}\` shows what the journal kept`,
      );
    });
    try {
      const status = await Promise.race([done, died]);
      if (!json) process.stderr.write(`session ${sessionId} · run ${turnId} · ${status}\n`);
      return status === "completed" ? ExitCode.Ok : status === "cancelled" ? ExitCode.Cancelled : ExitCode.Failed;
    } catch (e) {
      process.stderr.write(`hearth exec: ${errorMessage(e)}\n`);
      return ExitCode.KernelError;
    } finally {
      process.off("SIGINT", onSigint);
    }
  } catch (e) {
    if (e instanceof KernelRequestError) {
      process.stderr.write(`hearth exec: ${e.message}\n`);
      return ExitCode.Failed;
    }
    throw e;
  } finally {
    await kernel.close();
  }
}

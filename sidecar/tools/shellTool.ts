// shell: runs a command in the workspace folder with a fixed environment, bounded output and
// time, and a process group that is terminated whole on timeout or cancellation (harness #12,
// #14). Approval is required; it is not a sandbox promise.
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool, ToolResult } from "../agent/ports/tools.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import type { Ceilings } from "./ceilings.js";
import { runInProcessGroup, type RunOutcome } from "./processGroup.js";
import type { ShellEnvironment } from "./shellEnvironment.js";
import { badArgs, defineTool } from "./toolKit.js";

export interface ShellToolOptions {
  /** Grace between SIGTERM and SIGKILL; tests shorten it. */
  readonly graceMs?: number;
}

export function shellTool(ws: AnchoredWorkspace, ceilings: Ceilings, shellEnv: ShellEnvironment, opts: ShellToolOptions = {}): Tool {
  const maxTimeout = ceilings.shellMaxTimeoutMs;
  const defaultTimeout = Math.min(ceilings.shellDefaultTimeoutMs, maxTimeout);
  const schema: ObjectSchema = {
    type: "object",
    properties: {
      command: { type: "string", description: "A /bin/sh command line, run in the workspace folder", minLength: 1, maxLength: 16_000 },
      timeoutMs: {
        type: "integer",
        description: `Time limit in ms (default ${defaultTimeout}, at most ${maxTimeout})`,
        minimum: 100,
        maximum: maxTimeout,
      },
    },
    required: ["command"],
    additionalProperties: false,
  };
  const definition = defineTool({
    name: "shell",
    description: `Run a /bin/sh command in the folder as the user, no sandbox (default timeout ${defaultTimeout / 1000} s).`,
    parameters: schema,
    effectClass: "non_idempotent_write",
    retryPolicy: "never_auto_retry",
    // Interruptible: cancellation terminates the whole group and waits for it, so nothing is detached.
    cancellation: "Interruptible",
    requiresApproval: true,
    config: {
      defaultTimeout,
      maxTimeout,
      outputBytes: ceilings.shellOutputBytes,
      pathDigest: shellEnv.pathDigest,
      homeDigest: shellEnv.homeDigest,
      locale: shellEnv.env.LANG,
    },
  });
  // Linux: the child's working directory is reached through the held descriptor, not by name.
  const cwd = ws.resolver === "pathwalk" ? ws.identity.canonicalPath : `/proc/${process.pid}/fd/${ws.rootFd}`;
  return {
    definition,
    async propose(args) {
      const t = (args.timeoutMs as number | undefined) ?? defaultTimeout;
      return {
        preview: {
          kind: "text",
          text:
            `run in ${ws.identity.canonicalPath} (timeout ${Math.round(t / 1000)}s; runs on this machine with your ` +
            `permissions, not in a sandbox):\n${String(args.command)}`,
        },
      };
    },
    async invoke(args, _proposal, ctx) {
      const bad = badArgs("shell", schema, args);
      if (bad) return bad;
      const timeoutMs = (args.timeoutMs as number | undefined) ?? defaultTimeout;
      const outcome = await runInProcessGroup({
        command: args.command as string,
        cwd,
        env: shellEnv.env,
        timeoutMs,
        outputBytes: ceilings.shellOutputBytes,
        signal: ctx.signal,
        graceMs: opts.graceMs,
      });
      return describe(outcome, timeoutMs);
    },
  };
}

function describe(o: RunOutcome, timeoutMs: number): ToolResult {
  const head =
    o.terminated === "timeout"
      ? `terminated: the command ran past its ${timeoutMs} ms timeout; its whole process group was killed`
      : o.terminated === "cancelled"
        ? "terminated: the call was cancelled; the command's whole process group was killed"
        : o.exitSignal
          ? `the command was killed by ${o.exitSignal}`
          : `exit code ${o.exitCode}`;
  const parts = [head];
  if (o.leftoversKilled) parts.push("note: background processes the command left running were terminated");
  parts.push(section("stdout", o.stdout, o.droppedBytes.stdout), section("stderr", o.stderr, o.droppedBytes.stderr));
  return { ok: o.terminated === null && o.exitCode === 0, output: parts.join("\n") };
}

function section(name: string, text: string, dropped: number): string {
  return `${name}:\n${text}${dropped > 0 ? `\n[${dropped} more bytes of ${name} dropped]` : ""}`;
}

// Connects a CLI command to the kernel that owns the workspace's journal, starting one detached
// when none runs (issue 12, item 2): the same launcher and protocol the extension uses, so the
// terminal sees exactly what the editor sees, and a command never opens the journal itself.
import fs from "node:fs";
import path from "node:path";
import { connectOrStartKernel, type SharedKernel } from "../../shared/node/kernelLauncher.js";
import type { RequestResult } from "../../shared/protocol/index.js";
import { kernelEndpoint } from "../../shared/node/paths.js";
import { HEARTH_VERSION } from "../../shared/version.js";
import { flagString, UsageError, type ParsedArgs } from "./args.js";
import { distDir } from "./distDir.js";
import { errorMessage } from "../../shared/errors.js";
import { cliSettings, joinReport } from "./kernelSettingsCheck.js";

/** The kernel could not be started, refused this client, or went away before it answered (exit code 4). */
export class KernelStartError extends Error {}

export interface CliKernel {
  client: SharedKernel["client"];
  info: RequestResult<"initialize">;
  /** Resolves when the connection to the kernel closes (it exited or was killed). */
  closed: Promise<void>;
  /** Settles as `pending` does, or fails with KernelStartError once the kernel goes away first. */
  unlessGone<T>(pending: Promise<T>): Promise<T>;
  /** Leaves the kernel: it keeps running for other clients and exits on its own when idle. */
  close(): Promise<void>;
}

export async function connectKernel(args: ParsedArgs): Promise<CliKernel> {
  const workspace = flagString(args, "workspace") ?? process.cwd();
  if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory()) {
    throw new UsageError(`--workspace ${workspace} is not a directory; pass the folder the agent may work in`);
  }
  let kernel: SharedKernel;
  try {
    kernel = await connectOrStartKernel({
      distDir: distDir(),
      workspace,
      journalPath: flagString(args, "db"),
      nodePathSetting: process.env.HEARTH_NODE_PATH,
    });
  } catch (e) {
    throw new KernelStartError(errorMessage(e)); // no runtime fits, no build, the kernel refused or failed to start
  }
  // A request to a kernel that died never settles (vscode-jsonrpc rejects pending requests only on
  // dispose): without this race node ends the CLI with exit 13 and no word (issue 23, item 4).
  let pid = "";
  const gone = kernel.closed.then(() => {
    throw new KernelStartError(
      `the kernel (${pid}journal ${kernel.journalPath}) closed the connection before it answered: it stopped or ` +
        `crashed; see its log ${kernelEndpoint(kernel.journalPath).logPath}. Run the command again to start a new one`,
    );
  });
  gone.catch(() => {}); // raced by each request; nobody may be waiting when the kernel leaves
  const unlessGone = <T>(pending: Promise<T>) => Promise.race([pending, gone]);
  // issue 24: a terminal command names its folder (a kernel of another folder refuses it) and never
  // stands in for a person: a task's approvals are answered at a terminal only by `hearth task approve|deny`.
  const client = { kind: "terminal" as const, folder: path.resolve(workspace), asksPerson: false };
  let info: RequestResult<"initialize">;
  try {
    // Its settings go with it: its stricter ones apply to the runs it starts (issue 22, item 2).
    info = await unlessGone(kernel.client.initialize("hearth-cli", HEARTH_VERSION, { client, settings: cliSettings() }));
  } catch (e) {
    kernel.dispose(); // a refused client leaves at once: an open socket would keep the command alive
    throw e instanceof KernelStartError ? e : new KernelStartError(errorMessage(e));
  }
  pid = `pid ${info.kernelPid}, `;
  for (const line of joinReport(info)) process.stderr.write(`${line}\n`);
  if (process.env.HEARTH_DEBUG)
    process.stderr.write(`hearth: ${kernel.started ? "started" : "joined"} kernel pid ${info.kernelPid} (journal ${info.journalPath})\n`);
  return {
    client: kernel.client,
    info,
    closed: kernel.closed,
    unlessGone,
    async close() {
      kernel.dispose();
    },
  };
}

/** Runs `fn` against the workspace's kernel and always leaves it afterwards. */
export async function withKernel<T>(args: ParsedArgs, fn: (client: CliKernel["client"]) => Promise<T>): Promise<T> {
  const kernel = await connectKernel(args);
  try {
    return await kernel.unlessGone(fn(kernel.client));
  } finally {
    await kernel.close();
  }
}

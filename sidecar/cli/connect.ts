// Starts a kernel for one CLI command and performs the handshake: the same launcher and protocol
// the extension uses, so the CLI proves the kernel boundary is real.
import fs from "node:fs";
import { launchKernel, type LaunchedKernel } from "../../shared/node/kernelLauncher.js";
import type { RequestResult } from "../../shared/protocol/index.js";
import { HEARTH_VERSION } from "../../shared/version.js";
import { flagString, UsageError, type ParsedArgs } from "./args.js";
import { distDir } from "./distDir.js";

export interface CliKernel extends LaunchedKernel {
  info: RequestResult<"initialize">;
  close(): Promise<void>;
}

export async function connectKernel(args: ParsedArgs, opts: { model?: string } = {}): Promise<CliKernel> {
  const workspace = flagString(args, "workspace") ?? process.cwd();
  if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory()) {
    throw new UsageError(`--workspace ${workspace} is not a directory; pass the folder the agent may work in`);
  }
  const stderr: string[] = [];
  const kernel = launchKernel({
    distDir: distDir(),
    workspace,
    journalPath: flagString(args, "db"),
    model: opts.model,
    nodePathSetting: process.env.HEARTH_NODE_PATH,
    onStderr: (line) => {
      stderr.push(line);
      if (process.env.HEARTH_DEBUG) process.stderr.write(line + "\n");
    },
  });
  const died = kernel.exited.then(({ code, signal }) => {
    throw new Error(`the kernel exited (${signal ?? `code ${code}`}) before answering:\n${stderr.slice(-5).join("\n")}`);
  });
  const info = await Promise.race([kernel.client.initialize("hearth-cli", HEARTH_VERSION), died]);
  died.catch(() => {}); // after the handshake, exits are reported by the command itself
  return {
    ...kernel,
    info,
    async close() {
      if (kernel.child.exitCode === null && kernel.child.signalCode === null) {
        await kernel.client.request("kernel/shutdown", undefined).catch(() => kernel.child.kill("SIGTERM"));
      }
      await kernel.exited;
      kernel.client.dispose();
    },
  };
}

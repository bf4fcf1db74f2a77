// Starts a kernel for one CLI command and performs the handshake: the same launcher and protocol
// the extension uses, so the CLI proves the kernel boundary is real.
import fs from "node:fs";
import { launchKernel, type LaunchedKernel } from "../../shared/node/kernelLauncher.js";
import type { RequestResult } from "../../shared/protocol/index.js";
import { HEARTH_VERSION } from "../../shared/version.js";
import { flagString, UsageError, type ParsedArgs } from "./args.js";
import { distDir } from "./distDir.js";

/** The kernel could not be started or died before the handshake (exit code 4). */
export class KernelStartError extends Error {}

export interface CliKernel extends LaunchedKernel {
  info: RequestResult<"initialize">;
  close(): Promise<void>;
}

export async function connectKernel(args: ParsedArgs): Promise<CliKernel> {
  const workspace = flagString(args, "workspace") ?? process.cwd();
  if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory()) {
    throw new UsageError(`--workspace ${workspace} is not a directory; pass the folder the agent may work in`);
  }
  const stderr: string[] = [];
  let kernel: ReturnType<typeof launchKernel>;
  try {
    kernel = launchKernel({
      distDir: distDir(),
      workspace,
      journalPath: flagString(args, "db"),
      nodePathSetting: process.env.HEARTH_NODE_PATH,
      onStderr: (line) => {
        stderr.push(line);
        if (process.env.HEARTH_DEBUG) process.stderr.write(line + "\n");
      },
    });
  } catch (e) {
    throw new KernelStartError((e as Error).message); // no runtime matches the native modules, or no build
  }
  const died = kernel.exited.then(({ code, signal }) => {
    const fatal = stderr.filter((l) => l.includes("fatal:")).map((l) => l.slice(l.indexOf("fatal:") + 7));
    throw new KernelStartError(`the kernel exited (${signal ?? `code ${code}`}) before it answered: ${fatal.join(" ") || stderr.slice(-3).join(" ") || "no message"}`);
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

/** Runs `fn` against a kernel started for one command, and always shuts the kernel down. */
export async function withKernel<T>(args: ParsedArgs, fn: (client: CliKernel["client"]) => Promise<T>): Promise<T> {
  const kernel = await connectKernel(args);
  try {
    return await fn(kernel.client);
  } finally {
    await kernel.close();
  }
}

// Starts a kernel for one CLI command through the shared launcher, and always shuts it down.
import fs from "node:fs";
import { HEARTH_VERSION } from "../../../shared/version.js";
import { launchKernel } from "../../../shared/node/kernelLauncher.js";
import type { KernelClient } from "../../../shared/node/kernelClient.js";
import { flagString, type ParsedArgs } from "../args.js";
import { distDir } from "../distDir.js";

export async function withKernel<T>(args: ParsedArgs, fn: (client: KernelClient) => Promise<T>): Promise<T> {
  const workspace = fs.realpathSync(flagString(args, "workspace") ?? process.cwd());
  const stderr: string[] = [];
  const kernel = launchKernel({ distDir: distDir(), workspace, journalPath: flagString(args, "db"), onStderr: (l) => stderr.push(l) });
  try {
    await Promise.race([
      kernel.client.initialize("hearth-cli", HEARTH_VERSION),
      kernel.exited.then(({ code }) => {
        const fatal = stderr.filter((l) => l.includes("fatal:")).map((l) => l.slice(l.indexOf("fatal:") + 7));
        throw new Error(`the kernel exited (${code}) before it answered: ${fatal.join(" ") || stderr.slice(-3).join(" ") || "no message"}`);
      }),
    ]);
    return await fn(kernel.client);
  } finally {
    if (kernel.child.exitCode === null) {
      await kernel.client.request("kernel/shutdown", undefined).catch(() => kernel.child.kill("SIGTERM"));
      await kernel.exited;
    }
    kernel.client.dispose();
  }
}

// A window's supervisor on a folder's shared kernel, as the extension makes one, for the tests of the
// extension's plain-Node parts against a real kernel; and the end that stops the kernels they started.
import { KernelSupervisor } from "../../extension/kernel/kernelSupervisor.js";
import { connectOrStartKernel } from "../../shared/node/kernelLauncher.js";
import { alive } from "./cliProcess.js";
import { DIST } from "./kernelProcess.js";

export const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

/** A supervisor for `workspace` whose kernel gets `env` (read at each start, so a test may change it). */
export function windowKernel(workspace: string, env: Record<string, string>): KernelSupervisor {
  return new KernelSupervisor({
    clientVersion: "test",
    log: quietLog,
    env: () => env,
    connect: (kernelEnv, onSpawn) => connectOrStartKernel({ distDir: DIST, workspace, env: kernelEnv, onSpawn }),
  });
}

/** Detached kernels outlive their windows by design: a test's own are stopped here. */
export async function stopWindowKernels(kernels: readonly KernelSupervisor[]): Promise<void> {
  for (const k of kernels) {
    const pid = k.pid;
    await k.dispose();
    if (pid && alive(pid)) process.kill(pid, "SIGTERM");
  }
}

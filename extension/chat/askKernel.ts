// One ask of the kernel for a list the chat view shows (the project instructions, the modes), as
// trusted as this window's folder: the answer, or the words that say why there is none (also logged).
// Plain Node (no `vscode` import).
import { errorMessage } from "../../shared/errors.js";
import type { KernelClient } from "../../shared/node/kernelClient.js";
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";

export interface FolderKernelDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted">;
  log: KernelLog;
  /** True while the folder is untrusted: the kernel answers for a read-only, restricted folder. */
  restricted(): boolean;
}

/** `what` completes "Could not …"; `area` prefixes the log line. */
export async function askKernel<T>(
  deps: FolderKernelDeps,
  area: string,
  what: string,
  call: (client: KernelClient, readOnly: boolean) => Promise<T>,
): Promise<{ answer: T } | { error: string }> {
  try {
    return { answer: await call(await deps.kernel.ensureStarted(), deps.restricted()) };
  } catch (e) {
    const error = `Could not ${what}: ${errorMessage(e)}`;
    deps.log.warn(`${area}: ${error}`);
    return { error };
  }
}

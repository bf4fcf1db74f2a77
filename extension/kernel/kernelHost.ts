// Wires the supervisor to VS Code: which folder, which journal, which runtime setting. Nothing here
// runs at activation beyond building the closure; the kernel starts on first use.
import * as vscode from "vscode";
import { launchKernel } from "../../shared/node/kernelLauncher.js";
import { KernelSupervisor, type KernelLog } from "./kernelSupervisor.js";

export const NODE_PATH_SETTING = "hearth.kernel.nodePath";

/** The folder the kernel serves: the first workspace folder on disk, or none. */
export function kernelWorkspace(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file")?.uri.fsPath;
}

/** The settings and the stored API key, as the kernel's environment (read at each start). */
export type KernelEnvSource = () => Record<string, string>;

export function createSupervisor(context: vscode.ExtensionContext, workspace: string, log: KernelLog, env: KernelEnvSource): KernelSupervisor {
  return new KernelSupervisor({
    clientVersion: vscode.version,
    log,
    launch: (onStderr) => {
      // No journal path of its own: the kernel takes the folder's journal from shared/node/paths.ts,
      // the same one `hearth` uses in a terminal (issue 12, item 1).
      return launchKernel({
        distDir: context.asAbsolutePath("dist"),
        workspace,
        // Read at each launch so a changed setting applies on the next (re)start.
        nodePathSetting: vscode.workspace.getConfiguration().get<string>(NODE_PATH_SETTING, ""),
        env: env(),
        onStderr,
      });
    },
  });
}

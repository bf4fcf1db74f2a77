// Wires the supervisor to VS Code: which folder, which runtime setting, which environment. Nothing
// here runs at activation beyond building the closures; the kernel is joined or started on first use.
import * as vscode from "vscode";
import { connectOrStartKernel } from "../../shared/node/kernelLauncher.js";
import { KernelSupervisor, type KernelLog } from "./kernelSupervisor.js";

export const NODE_PATH_SETTING = "hearth.kernel.nodePath";

/** The folder the kernel serves: the first workspace folder on disk, or none. */
export function kernelWorkspace(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file")?.uri.fsPath;
}

/** The settings and the stored API key, as the kernel's environment (read at each start). */
export type KernelEnvSource = () => Record<string, string>;

export function createSupervisor(
  context: vscode.ExtensionContext,
  workspace: string,
  log: KernelLog,
  env: KernelEnvSource,
): KernelSupervisor {
  return new KernelSupervisor({
    clientVersion: vscode.version,
    principal: { kind: "window", folder: workspace, asksPerson: true },
    log,
    // Read at each connect so a changed setting applies to the next kernel this window starts.
    env,
    connect: (kernelEnv, onSpawn) =>
      // No journal path of its own: the kernel takes the folder's journal from shared/node/paths.ts,
      // the same one `hearth` uses in a terminal, whose kernel this window joins (issue 12).
      connectOrStartKernel({
        distDir: context.asAbsolutePath("dist"),
        workspace,
        nodePathSetting: vscode.workspace.getConfiguration().get<string>(NODE_PATH_SETTING, ""),
        env: kernelEnv,
        onSpawn,
      }),
  });
}

// Wires the supervisor to VS Code: which folder, which journal, which runtime setting. Nothing here
// runs at activation beyond building the closure; the kernel starts on first use.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { launchKernel } from "../../shared/node/kernelLauncher.js";
import { KernelSupervisor, type KernelLog } from "./kernelSupervisor.js";

export const NODE_PATH_SETTING = "hearth.kernel.nodePath";

/** The folder the kernel serves: the first workspace folder on disk, or none. */
export function kernelWorkspace(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file")?.uri.fsPath;
}

/** One journal per workspace folder, in the extension's global storage (never inside the workspace). */
export function journalPathFor(context: vscode.ExtensionContext, workspace: string): string {
  const digest = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
  return path.join(context.globalStorageUri.fsPath, "journals", `${digest}.sqlite`);
}

export function createSupervisor(context: vscode.ExtensionContext, workspace: string, log: KernelLog): KernelSupervisor {
  const journalPath = journalPathFor(context, workspace);
  return new KernelSupervisor({
    clientVersion: vscode.version,
    log,
    launch: (onStderr) => {
      fs.mkdirSync(path.dirname(journalPath), { recursive: true });
      return launchKernel({
        distDir: context.asAbsolutePath("dist"),
        workspace,
        journalPath,
        // Read at each launch so a changed setting applies on the next (re)start.
        nodePathSetting: vscode.workspace.getConfiguration().get<string>(NODE_PATH_SETTING, ""),
        onStderr,
      });
    },
  });
}

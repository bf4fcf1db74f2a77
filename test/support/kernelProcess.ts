// Starts a real kernel process from the built bundle for integration tests, with a fresh workspace
// and journal in a temporary folder, through the same launcher the extension and CLI use.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchKernel, type LaunchedKernel, type LaunchOptions } from "../../shared/node/kernelLauncher.js";

export const DIST = path.resolve("dist");

export interface TestKernel extends LaunchedKernel {
  workspace: string;
  journalPath: string;
  stderr: string[];
  stop(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `hearth-${prefix}-`));
}

/**
 * The options of a kernel that is stopped and started again over the same folders: a workspace
 * `<root>/ws` (made here), the journal `<root>/journal.sqlite` and HEARTH_HOME `<root>/home` in a
 * fresh temporary `root`, with `env` added.
 */
export function restartableKernelOptions(prefix: string, env: Record<string, string>) {
  const root = tempDir(prefix);
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  return { workspace, journalPath: path.join(root, "journal.sqlite"), env: { HEARTH_HOME: path.join(root, "home"), ...env } };
}

export function startTestKernel(opts: Partial<LaunchOptions> = {}): TestKernel {
  const root = tempDir("kernel");
  const workspace = opts.workspace ?? path.join(root, "ws");
  fs.mkdirSync(workspace, { recursive: true });
  const journalPath = opts.journalPath ?? path.join(root, "journal.sqlite");
  const stderr: string[] = [];
  const launched = launchKernel({ distDir: DIST, ...opts, workspace, journalPath, onStderr: (l) => stderr.push(l) });
  return {
    ...launched,
    workspace,
    journalPath,
    stderr,
    async stop() {
      if (launched.child.exitCode === null && launched.child.signalCode === null) launched.child.kill("SIGTERM");
      await launched.exited;
      launched.client.dispose();
    },
  };
}

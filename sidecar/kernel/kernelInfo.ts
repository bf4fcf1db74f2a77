// What the kernel was started with: fixed for the life of the process.
export interface KernelConfig {
  kernelVersion: string;
  /** Canonical (realpath) workspace folder: the root every tool is anchored at. */
  workspaceRoot: string;
  /** The journal file; always outside the workspace. */
  journalPath: string;
  /** Model spec from the command line or editor setting, if any. */
  modelSpec: string | null;
}

// Where Hearth keeps its files outside the workspace. Both clients and the kernel agree on these:
// the kernel (sidecar/main.ts) and the launcher the extension and the CLI start or join it through
// (kernelLauncher.ts) compute a folder's journal with the same function (issue 12, item 1).
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** $HEARTH_HOME, else $XDG_DATA_HOME/hearth, else ~/.local/share/hearth. */
export function hearthHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HEARTH_HOME) return path.resolve(env.HEARTH_HOME);
  const base = env.XDG_DATA_HOME ? path.resolve(env.XDG_DATA_HOME) : path.join(os.homedir(), ".local", "share");
  return path.join(base, "hearth");
}

function digest16(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/**
 * One journal per workspace folder, named by a digest of its canonical path. The folder is
 * resolved through symlinks here, so a client that names it by a link finds the same journal.
 */
export function defaultJournalPath(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  let canonical = path.resolve(workspace);
  try {
    canonical = fs.realpathSync(canonical);
  } catch {
    /* a folder that does not exist yet keeps its resolved name; the kernel refuses it later */
  }
  return path.join(hearthHome(env), "journals", `${path.basename(canonical) || "root"}-${digest16(canonical)}.sqlite`);
}

/** The lock file beside a journal: whoever holds its flock owns the journal (issue 12, item 1). */
export function journalLockPath(journalPath: string): string {
  return `${journalPath}.lock`;
}

/**
 * The owner-only folder for kernel sockets and secrets: $XDG_RUNTIME_DIR/hearth (a per-user tmpfs
 * the system makes 0700) when there is one, else HEARTH_HOME/run.
 */
export function kernelRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_RUNTIME_DIR ? path.join(path.resolve(env.XDG_RUNTIME_DIR), "hearth") : path.join(hearthHome(env), "run");
}

export interface KernelEndpoint {
  /** The Unix socket the journal's owner serves clients on. */
  socketPath: string;
  /** The owner's per-kernel secret (0600); a client must present it before any request. */
  secretPath: string;
  /** Where a detached kernel writes its log (stderr). */
  logPath: string;
}

/**
 * The journal file's identity (issue 24, item 6): its device and inode, so a hard link or a symlink
 * to a journal names the same one; its resolved path while the file does not exist yet.
 */
export function journalIdentity(journalPath: string): string {
  try {
    const st = fs.statSync(journalPath, { bigint: true });
    return `inode:${st.dev}:${st.ino}`;
  } catch {
    return path.resolve(journalPath);
  }
}

/**
 * The endpoint of the kernel that owns `journalPath`, named by a digest (short enough for sun_path)
 * of the journal's identity, so every name of one journal file meets the same owner. The log is
 * named by the path: it is chosen before a kernel creates a journal that does not exist yet.
 */
export function kernelEndpoint(journalPath: string, env: NodeJS.ProcessEnv = process.env): KernelEndpoint {
  const dir = kernelRuntimeDir(env);
  const name = digest16(journalIdentity(journalPath));
  return {
    socketPath: path.join(dir, `${name}.sock`),
    secretPath: path.join(dir, `${name}.secret`),
    logPath: path.join(dir, `${digest16(path.resolve(journalPath))}.log`),
  };
}

/** True when `candidate` is `root` or lies beneath it (both already resolved). */
export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

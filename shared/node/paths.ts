// Where Hearth keeps its files outside the workspace. Both clients and the kernel agree on these.
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";

/** $HEARTH_HOME, else $XDG_DATA_HOME/hearth, else ~/.local/share/hearth. */
export function hearthHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HEARTH_HOME) return path.resolve(env.HEARTH_HOME);
  const base = env.XDG_DATA_HOME ? path.resolve(env.XDG_DATA_HOME) : path.join(os.homedir(), ".local", "share");
  return path.join(base, "hearth");
}

/** One journal per workspace folder, named by a digest of its canonical path. */
export function defaultJournalPath(workspaceRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const digest = createHash("sha256").update(workspaceRoot).digest("hex").slice(0, 16);
  return path.join(hearthHome(env), "journals", `${path.basename(workspaceRoot) || "root"}-${digest}.sqlite`);
}

/** True when `candidate` is `root` or lies beneath it (both already resolved). */
export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

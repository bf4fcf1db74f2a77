// The shell's environment, fixed when the tool is built (harness #14): nothing inherited but a
// locale, PATH and HOME; only absolute, non-traversing directories survive; PATH gets fixed
// system fallbacks. Domain-separated digests of PATH and HOME enter the tool's durable identity
// so configuration drift fails a resume closed without the raw directories being recorded.
import { digestOf } from "../agent/canonicalJson.js";

export const FALLBACK_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"] as const;
export const SHELL_LOCALE = "C.UTF-8";

export interface ShellEnvironment {
  readonly env: Readonly<Record<string, string>>;
  readonly pathDigest: string;
  readonly homeDigest: string;
}

/** Absolute, no empty/`.`/`..` components, no NUL. Windows drive paths count as absolute there. */
export function isCleanAbsolute(dir: string): boolean {
  if (dir.includes("\0")) return false;
  const posix = dir.startsWith("/");
  const win = process.platform === "win32" && /^[A-Za-z]:[\\/]/.test(dir);
  if (!posix && !win) return false;
  const parts = dir.slice(posix ? 1 : 3).split(/[\\/]/);
  return parts.every((p, i) => p !== "." && p !== ".." && (p !== "" || i === parts.length - 1 || dir === "/"));
}

export function captureShellEnvironment(source: NodeJS.ProcessEnv = process.env): ShellEnvironment {
  const sep = process.platform === "win32" ? ";" : ":";
  const seen = new Set<string>();
  const path: string[] = [];
  for (const dir of [...(source.PATH ?? "").split(sep), ...FALLBACK_PATH]) {
    if (!isCleanAbsolute(dir) || seen.has(dir)) continue;
    seen.add(dir);
    path.push(dir);
  }
  const home = source.HOME !== undefined && isCleanAbsolute(source.HOME) ? source.HOME : null;
  const env: Record<string, string> = { LANG: SHELL_LOCALE, LC_ALL: SHELL_LOCALE, PATH: path.join(sep) };
  if (home !== null) env.HOME = home;
  return Object.freeze({
    env: Object.freeze(env),
    pathDigest: digestOf("hearth.shell-path.v1", path),
    homeDigest: digestOf("hearth.shell-home.v1", home),
  });
}

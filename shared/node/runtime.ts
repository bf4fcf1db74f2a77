// Picks the Node runtime for the kernel: its ABI must match the native modules (better-sqlite3,
// node-llama-cpp) that were built for it. Order: explicit setting, the Node that ran the build,
// `node` on PATH (ARCHITECTURE.md).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface BuildInfo {
  version: string;
  nodePath: string;
  nodeVersion: string;
  modulesAbi: string;
}

export interface RuntimeProbe {
  nodePath: string;
  source: "setting" | "build" | "path";
  version: string;
  abi: string;
}

export function readBuildInfo(distDir: string): BuildInfo {
  const file = path.join(distDir, "build-info.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as BuildInfo;
  } catch (e) {
    throw new Error(`Hearth is not built: ${file} is missing or unreadable (${(e as Error).message}); run \`npm run build\``);
  }
}

/** Asks a Node binary for its version and module ABI. Null when it cannot run. */
export function probeNode(nodePath: string): { version: string; abi: string } | null {
  try {
    const out = execFileSync(nodePath, ["-p", "process.version + ' ' + process.versions.modules"], {
      encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, NODE_OPTIONS: "" },
    }).trim();
    const [version, abi] = out.split(" ");
    return version && abi ? { version, abi } : null;
  } catch {
    return null;
  }
}

export function resolveRuntime(build: BuildInfo, setting: string | undefined): RuntimeProbe {
  const tried: string[] = [];
  const candidates: { nodePath: string; source: RuntimeProbe["source"] }[] = [];
  if (setting && setting.trim()) candidates.push({ nodePath: setting.trim(), source: "setting" });
  candidates.push({ nodePath: build.nodePath, source: "build" }, { nodePath: "node", source: "path" });
  for (const c of candidates) {
    const probe = probeNode(c.nodePath);
    if (!probe) {
      tried.push(`${c.source} ${c.nodePath}: cannot run`);
      if (c.source === "setting") break;
      continue;
    }
    if (probe.abi === build.modulesAbi) return { ...c, ...probe };
    tried.push(`${c.source} ${c.nodePath}: Node ${probe.version} (ABI ${probe.abi})`);
    // An explicit setting that does not fit is an error, never silently overridden.
    if (c.source === "setting") break;
  }
  throw new Error(
    `no Node runtime matches Hearth's native modules (built with Node ${build.nodeVersion}, ABI ${build.modulesAbi}). ` +
      `Tried: ${tried.join("; ")}. Set hearth.kernel.nodePath to a Node ${build.nodeVersion.split(".")[0]} binary, or rebuild Hearth with \`npm rebuild && npm run build\` under the Node you want to use.`,
  );
}

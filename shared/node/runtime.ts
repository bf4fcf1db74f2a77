// Picks the Node runtime for the kernel: its ABI must match the native modules (better-sqlite3,
// node-llama-cpp) that were built for it. Order: explicit setting, the runtime the .vsix ships
// (docs/packaging.md), the Node that ran the build, `node` on PATH (ARCHITECTURE.md).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "../errors.js";

export interface BuildInfo {
  version: string;
  /** The Node that ran the build; absent in a package, which runs only on its own runtime. */
  nodePath?: string;
  /** Set by `npm run package`: the runtime ships at runtime/bin/node (docs/packaging.md). */
  bundledRuntime?: boolean;
  nodeVersion: string;
  modulesAbi: string;
}

export interface RuntimeProbe {
  nodePath: string;
  source: "setting" | "bundled" | "build" | "path";
  version: string;
  abi: string;
}

/** No Node runtime fits the build: retrying cannot help until a setting or the installation changes. */
export class RuntimeUnavailable extends Error {}

export function readBuildInfo(distDir: string): BuildInfo {
  const file = path.join(distDir, "build-info.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as BuildInfo;
  } catch (e) {
    throw new RuntimeUnavailable(`Hearth is not built: ${file} is missing or unreadable (${errorMessage(e)}); run \`npm run build\``);
  }
}

/** Asks a Node binary for its version and module ABI. Null when it cannot run. */
export function probeNode(nodePath: string): { version: string; abi: string } | null {
  try {
    const out = execFileSync(nodePath, ["-p", "process.version + ' ' + process.versions.modules"], {
      encoding: "utf8",
      timeout: 10_000,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, NODE_OPTIONS: "" },
    }).trim();
    const [version, abi] = out.split(" ");
    return version && abi ? { version, abi } : null;
  } catch {
    return null;
  }
}

/** Where a packaged Hearth keeps its own Node: `<extension>/runtime/bin/node`, beside dist/. */
export function bundledRuntimePath(distDir: string): string {
  return path.join(distDir, "..", "runtime", "bin", process.platform === "win32" ? "node.exe" : "node");
}

export function resolveRuntime(build: BuildInfo, setting: string | undefined, distDir: string): RuntimeProbe {
  const tried: string[] = [];
  const candidates: { nodePath: string; source: RuntimeProbe["source"] }[] = [];
  if (setting?.trim()) candidates.push({ nodePath: setting.trim(), source: "setting" });
  // A package never falls back to whatever Node the machine has: its natives fit its own runtime.
  if (build.bundledRuntime) candidates.push({ nodePath: bundledRuntimePath(distDir), source: "bundled" });
  else {
    if (build.nodePath) candidates.push({ nodePath: build.nodePath, source: "build" });
    candidates.push({ nodePath: "node", source: "path" });
  }
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
  if (build.bundledRuntime) {
    throw new RuntimeUnavailable(
      `Hearth's own Node runtime does not run (${tried.join("; ")}): reinstall the extension, or set ` +
        `hearth.kernel.nodePath to a Node ${build.nodeVersion.split(".")[0]} binary`,
    );
  }
  throw new RuntimeUnavailable(
    `no Node runtime matches Hearth's native modules (built with Node ${build.nodeVersion}, ABI ${build.modulesAbi}). ` +
      `Tried: ${tried.join("; ")}. Set hearth.kernel.nodePath to a Node ${build.nodeVersion.split(".")[0]} binary, ` +
      `or rebuild Hearth with \`npm rebuild && npm run build\` under the Node you want to use.`,
  );
}

// llama.cpp's CUDA build for node-llama-cpp is 181 + 357 MB: too big to ship in the .vsix
// (docs/packaging.md), so it is offered as a download the person confirms (issue 10, item 1). It
// comes from the npm registry as the same packages npm would install, unpacked where
// node-llama-cpp looks for them (beside it in node_modules); a restarted kernel then uses it.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import * as tar from "tar";
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import { USER_AGENT } from "../../../shared/version.js";

export interface GpuBuild {
  gpu: "cuda";
  packages: readonly string[];
  approxBytes: number;
}

export const CUDA_BUILD: GpuBuild = {
  gpu: "cuda",
  packages: ["@node-llama-cpp/linux-x64-cuda", "@node-llama-cpp/linux-x64-cuda-ext"],
  approxBytes: 538 * 1024 ** 2,
};

export interface GpuOffer extends GpuBuild {
  /** Why it is offered, for the person: what was found and what runs now. */
  reason: string;
}

export interface OfferInputs {
  platform: string;
  arch: string;
  /** The GPU backend the loaded model runs on (false: the CPU). */
  usingGpu: string | false;
  /** A loaded NVIDIA kernel driver on this machine. */
  nvidiaDriver: boolean;
  /** Where node-llama-cpp looks for its prebuilt packages. */
  packagesDir: string;
}

/** The CUDA build, when an NVIDIA GPU is present, the model does not run on CUDA and the build is not installed. */
export function gpuBuildOffer(i: OfferInputs): GpuOffer | null {
  if (i.platform !== "linux" || i.arch !== "x64" || !i.nvidiaDriver || i.usingGpu === "cuda") return null;
  if (CUDA_BUILD.packages.every((p) => fs.existsSync(path.join(i.packagesDir, ...p.split("/"), "package.json")))) return null;
  const now = i.usingGpu ? `on ${i.usingGpu}` : "on the CPU";
  return {
    ...CUDA_BUILD,
    reason: `an NVIDIA GPU was found, but your model runs ${now}: Hearth ships only llama.cpp's CPU and Vulkan builds`,
  };
}

/** Linux's NVIDIA kernel driver announces itself here when it is loaded. */
export function nvidiaDriverLoaded(versionFile = "/proc/driver/nvidia/version"): boolean {
  return fs.existsSync(versionFile);
}

/** node-llama-cpp's own folder (its package.json is not exported, so found from its entry point). */
function nodeLlamaCppRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve("node-llama-cpp")));
  while (path.basename(dir) !== "node-llama-cpp" || !fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("node-llama-cpp's folder was not found above its entry point");
    dir = up;
  }
  return dir;
}

/** node_modules holding node-llama-cpp: where its `import("@node-llama-cpp/…")` finds a build. */
export function llamaPackagesDir(): string {
  return path.dirname(nodeLlamaCppRoot());
}

export function llamaVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(nodeLlamaCppRoot(), "package.json"), "utf8")) as { version: string }).version;
}

export interface InstallOptions {
  /** The npm registry (npm_config_registry, else the public one). */
  registry: string;
  packagesDir: string;
  /** Exactly node-llama-cpp's version: its binaries are built for it. */
  version: string;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
}

/**
 * Downloads each package's tarball and unpacks it into a temporary folder beside its target, then
 * renames it into place: a cancelled or failed download never leaves half a build where
 * node-llama-cpp would load it.
 */
export async function installGpuBuild(build: GpuBuild, o: InstallOptions): Promise<string[]> {
  const installed: string[] = [];
  let received = 0;
  for (const name of build.packages) {
    const target = path.join(o.packagesDir, ...name.split("/"));
    if (fs.existsSync(path.join(target, "package.json"))) continue;
    const url = `${o.registry.replace(/\/$/, "")}/${name}/-/${name.split("/")[1]}-${o.version}.tgz`;
    let res: Response;
    try {
      res = await fetch(url, { headers: { "user-agent": USER_AGENT }, signal: o.signal });
    } catch (e) {
      if (o.signal?.aborted) throw new HearthError(ErrorCode.Refused, `the download of ${name} was cancelled; nothing was installed`);
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `cannot reach the npm registry for ${name} (${errorMessage(e)}); check the connection or npm_config_registry`,
      );
    }
    if (!res.ok || !res.body)
      throw new HearthError(ErrorCode.ModelUnavailable, `the npm registry answered ${res.status} for ${url}; nothing was installed`);
    const total = Number(res.headers.get("content-length")) || null;
    const staging = fs.mkdtempSync(path.join(path.dirname(target), `.${path.basename(target)}-`));
    try {
      const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
      body.on("data", (chunk: Buffer) => {
        received += chunk.length;
        o.onProgress?.(received, total);
      });
      // npm tarballs hold the package under package/.
      await pipeline(body, tar.x({ cwd: staging, strip: 1 }), { signal: o.signal });
      fs.renameSync(staging, target);
    } catch (e) {
      fs.rmSync(staging, { recursive: true, force: true });
      if (o.signal?.aborted) throw new HearthError(ErrorCode.Refused, `the download of ${name} was cancelled; nothing of it was installed`);
      throw e;
    }
    installed.push(name);
  }
  return installed;
}

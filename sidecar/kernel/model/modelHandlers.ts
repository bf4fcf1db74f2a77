// model/status, model/load, model/cancelLoad and model/discover: the one model of this kernel, with
// load progress as notifications, and the models a person can choose from.
import {
  CUDA_BUILD,
  gpuBuildOffer,
  installGpuBuild,
  llamaPackagesDir,
  llamaVersion,
  nvidiaDriverLoaded,
} from "../../inference/llama/gpuBuilds.js";
import type { Handlers } from "../handlers/types.js";
import type { ShutdownGate } from "../shutdownGate.js";
import { modelCatalog } from "./modelCatalog.js";
import type { ModelHost } from "./modelHost.js";

export function modelHandlers(deps: { host: ModelHost; gate: ShutdownGate; modelsDir: string }) {
  let installing: AbortController | null = null;
  return {
    "model/status": async () => {
      const s = deps.host.status();
      return {
        state: s.state,
        spec: s.spec,
        error: s.error,
        ...(s.capabilities ? { capabilities: { ...s.capabilities } } : {}),
        ...(s.infill === undefined ? {} : { infill: s.infill }),
        ...(s.draft ? { draft: s.draft } : {}),
      };
    },
    "model/load": async (params, ctx) => {
      deps.gate.assertAccepting("model/load");
      await deps.host.load(params.spec, (p) => ctx.client.notify("model/progress", p));
      return { state: deps.host.status().state, spec: params.spec };
    },
    // issue 31: completions as you type, on the loaded model; the client's cancel reaches the native work.
    "completion/infill": async (params, ctx) => deps.host.infill({ ...params, signal: ctx.signal }),
    "model/cancelLoad": async () => {
      installing?.abort();
      return deps.host.cancelLoad();
    },
    "model/gpuOffer": async () => {
      const usingGpu = deps.host.gpu();
      if (usingGpu === null) return { offer: null };
      const offer = gpuBuildOffer({
        platform: process.platform,
        arch: process.arch,
        usingGpu,
        nvidiaDriver: nvidiaDriverLoaded(),
        packagesDir: llamaPackagesDir(),
      });
      return { offer: offer && { ...offer, packages: [...offer.packages] } };
    },
    "model/installGpuBuild": async (_params, ctx) => {
      deps.gate.assertAccepting("model/installGpuBuild");
      installing?.abort();
      const abort = new AbortController();
      installing = abort;
      const spec = "llama.cpp CUDA build";
      try {
        const installed = await installGpuBuild(CUDA_BUILD, {
          registry: process.env.npm_config_registry || "https://registry.npmjs.org",
          packagesDir: llamaPackagesDir(),
          version: llamaVersion(),
          signal: abort.signal,
          onProgress: (receivedBytes, totalBytes) =>
            ctx.client.notify("model/progress", {
              spec,
              phase: "download",
              fraction: Math.min(1, receivedBytes / CUDA_BUILD.approxBytes),
              receivedBytes,
              ...(totalBytes ? { totalBytes } : {}),
            }),
        });
        return { installed, restartNeeded: installed.length > 0 };
      } finally {
        if (installing === abort) installing = null;
      }
    },
    "model/discover": async () => modelCatalog({ modelsDir: deps.modelsDir }),
  } satisfies Handlers;
}

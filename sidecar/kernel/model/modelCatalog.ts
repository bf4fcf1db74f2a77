// model/discover (issue 10, item 3): the GGUF files already on this machine with their size and
// quantisation, and the recommended downloads with the default for this machine's memory marked.
import os from "node:os";
import type { RequestResult } from "../../../shared/protocol/index.js";
import { discoverModels } from "../../inference/discovery.js";
import { downloadedModelPath } from "../../inference/modelDownload.js";
import { recommendedModels } from "../../inference/recommended.js";

export async function modelCatalog(opts: {
  modelsDir: string;
  home?: string;
  totalMemoryBytes?: number;
  /** CPU cores: the default recommendation needs enough of them too (recommended.ts). */
  cores?: number;
}): Promise<RequestResult<"model/discover">> {
  const totalMemoryBytes = opts.totalMemoryBytes ?? os.totalmem();
  // node-llama-cpp's GGUF reader, loaded on first use like the rest of it.
  const { readQuantization } = await import("../../inference/ggufQuant.js");
  const found = await Promise.all(
    discoverModels(opts.home, opts.modelsDir).map(async (m) => ({
      path: m.path,
      name: m.name,
      source: m.source,
      sizeBytes: m.sizeBytes,
      quantization: await readQuantization(m.path),
    })),
  );
  const recommended = await Promise.all(
    recommendedModels(totalMemoryBytes, opts.cores ?? os.availableParallelism()).map(async (r) => ({
      spec: r.spec,
      name: r.name,
      sizeBytes: r.sizeBytes,
      quantization: r.quantization,
      isDefault: r.isDefault,
      downloaded: (await downloadedModelPath(r.spec, opts.modelsDir)) !== null,
    })),
  );
  return { found, recommended, modelsDir: opts.modelsDir, totalMemoryBytes };
}

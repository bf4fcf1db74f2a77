// Code models a person can download from the first-run welcome (issue 10, item 3): Qwen2.5-Coder
// Instruct at Q4_K_M, the quantisation that keeps most of the quality at a quarter of F16's size.
// The default is the largest one this machine's memory holds with room for the editor, the
// context's KV cache and the rest of the system.
import os from "node:os";

export interface RecommendedModel {
  /** An hf: URI naming the file (no API call needed to resolve it, so it resolves offline once downloaded). */
  spec: string;
  name: string;
  /** The file's size on Hugging Face (bytes, rounded); the download's own total is authoritative. */
  sizeBytes: number;
  quantization: string;
  /** Total memory from which this is the default. */
  minMemoryBytes: number;
}

const GB = 1024 ** 3;

export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    spec: "hf:bartowski/Qwen2.5-Coder-1.5B-Instruct-GGUF/Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 1.5B Instruct",
    sizeBytes: 986_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 0,
  },
  {
    spec: "hf:bartowski/Qwen2.5-Coder-3B-Instruct-GGUF/Qwen2.5-Coder-3B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 3B Instruct",
    sizeBytes: 1_930_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 8 * GB,
  },
  {
    spec: "hf:bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 7B Instruct",
    sizeBytes: 4_680_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 16 * GB,
  },
];

/** The recommendations, the default marked: the largest whose memory floor this machine meets. */
export function recommendedModels(totalMemoryBytes = os.totalmem()): (RecommendedModel & { isDefault: boolean })[] {
  // os.totalmem() reports a little under the installed size (firmware, kernel): allow 10%.
  const fits = RECOMMENDED_MODELS.filter((m) => totalMemoryBytes >= m.minMemoryBytes * 0.9);
  const pick = fits.at(-1) ?? RECOMMENDED_MODELS[0]!;
  return RECOMMENDED_MODELS.map((m) => ({ ...m, isDefault: m === pick }));
}

// Code models a person can download from the first-run welcome (issue 10, item 3): Qwen2.5-Coder
// Instruct at Q4_K_M, the quantisation that keeps most of the quality at a quarter of F16's size.
// The default is the largest one this machine's memory holds with room for the editor, the
// context's KV cache and the rest of the system, and its CPU runs at a usable speed (issue 25 item
// 11: a 7B model on four cores writes a few tokens a second, too slow to work with).
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
  /** CPU cores (os.availableParallelism) from which this is the default. */
  minCores: number;
}

const GB = 1024 ** 3;

export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    spec: "hf:bartowski/Qwen2.5-Coder-1.5B-Instruct-GGUF/Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 1.5B Instruct",
    sizeBytes: 986_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 0,
    minCores: 0,
  },
  {
    spec: "hf:bartowski/Qwen2.5-Coder-3B-Instruct-GGUF/Qwen2.5-Coder-3B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 3B Instruct",
    sizeBytes: 1_930_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 8 * GB,
    minCores: 4,
  },
  {
    spec: "hf:bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
    name: "Qwen2.5-Coder 7B Instruct",
    sizeBytes: 4_680_000_000,
    quantization: "Q4_K_M",
    minMemoryBytes: 16 * GB,
    minCores: 8,
  },
];

/** The recommendations, the default marked: the largest whose memory and core floors this machine meets. */
export function recommendedModels(
  totalMemoryBytes = os.totalmem(),
  cores = os.availableParallelism(),
): (RecommendedModel & { isDefault: boolean })[] {
  // os.totalmem() reports a little under the installed size (firmware, kernel): allow 10%.
  const fits = RECOMMENDED_MODELS.filter((m) => totalMemoryBytes >= m.minMemoryBytes * 0.9 && cores >= m.minCores);
  const pick = fits.at(-1) ?? RECOMMENDED_MODELS[0]!;
  return RECOMMENDED_MODELS.map((m) => ({ ...m, isDefault: m === pick }));
}

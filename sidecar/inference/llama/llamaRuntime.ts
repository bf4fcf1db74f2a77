// Loads llama.cpp through node-llama-cpp with the settings the probe measured as necessary on CPU:
// never compile at run time, explicit threads (the default max(4, cores) decodes ~10x slower on 2 cores),
// GPU when one is usable, CPU otherwise.
import fs from "node:fs";
import os from "node:os";
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel } from "node-llama-cpp";
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";

export interface LoadedLlama {
  llama: Llama;
  model: LlamaModel;
  gpu: string | false;
  threads: number;
}

/** Physical cores (hyper-threads share a core's math units, so they slow decode down). */
export function physicalCores(): number {
  try {
    const pairs = new Set<string>();
    let physical = "0";
    for (const line of fs.readFileSync("/proc/cpuinfo", "utf8").split("\n")) {
      const [k, v] = line.split(":").map((x) => x.trim());
      if (k === "physical id") physical = v ?? "0";
      if (k === "core id") pairs.add(`${physical}:${v}`);
    }
    if (pairs.size > 0) return pairs.size;
  } catch {
    // Not Linux: fall through to the logical count.
  }
  return Math.max(1, os.availableParallelism());
}

export async function loadLlama(opts: {
  modelPath: string;
  threads?: number;
  gpu?: "auto" | false;
  onProgress?: (fraction: number) => void;
}): Promise<LoadedLlama> {
  if (!fs.existsSync(opts.modelPath)) {
    throw new HearthError(
      ErrorCode.ModelUnavailable,
      `model file ${opts.modelPath} does not exist; set the model to an existing GGUF file, an hf: URI, or openai:URL#model`,
    );
  }
  const threads = opts.threads ?? physicalCores();
  const start = async (gpu: "auto" | false) => getLlama({ build: "never", gpu, maxThreads: threads, logLevel: LlamaLogLevel.error });
  let llama: Llama;
  try {
    llama = await start(opts.gpu ?? "auto");
  } catch (e) {
    if (opts.gpu === false) throw noBinary(e);
    llama = await start(false).catch((e2: unknown) => {
      throw noBinary(e2);
    });
  }
  try {
    const model = await llama.loadModel({ modelPath: opts.modelPath, onLoadProgress: opts.onProgress });
    return { llama, model, gpu: llama.gpu, threads };
  } catch (e) {
    if (llama.gpu !== false && opts.gpu !== false) {
      // spec: GPU auto-detect with CPU fallback (a driver that is present but cannot hold the model).
      await llama.dispose();
      const cpu = await start(false);
      const model = await cpu.loadModel({ modelPath: opts.modelPath, onLoadProgress: opts.onProgress }).catch((e2: unknown) => {
        throw badModel(opts.modelPath, e2);
      });
      return { llama: cpu, model, gpu: false, threads };
    }
    await llama.dispose();
    throw badModel(opts.modelPath, e);
  }
}

function noBinary(e: unknown): HearthError {
  return new HearthError(
    ErrorCode.ModelUnavailable,
    `no prebuilt llama.cpp binary could be loaded for this platform (${errorMessage(e)}); Hearth ` +
      "never compiles llama.cpp at run time. Reinstall the extension for your platform, or use an " +
      "OpenAI-compatible server (model setting openai:URL#model)",
  );
}

function badModel(modelPath: string, e: unknown): HearthError {
  return new HearthError(
    ErrorCode.ModelUnavailable,
    `cannot load the model ${modelPath}: ${errorMessage(e)}; check that it is a complete GGUF file ` +
      "(a partial download is not) of an architecture llama.cpp supports",
  );
}

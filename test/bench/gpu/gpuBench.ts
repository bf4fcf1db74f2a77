// GPU benchmark (issue 30, item 4), run by test/bench/gpu.sh on a machine with a GPU: for each GPU
// backend named, node-llama-cpp's prebuilt binary for it (the one Hearth loads) against llama.cpp's
// own llama-bench built for the same backend (buildLlamaTools.sh --backend), prefill and decode on the
// benchmark model with every layer offloaded; and Hearth's kernel, decoding through the whole stack on
// the backend node-llama-cpp picks by itself (`gpu: "auto"`, as the kernel does). Writes
// test/bench/results/gpu.json in the shape `npm run bench` gathers. `cpu` as a backend runs the same
// comparison on the CPU build: the script's own check on a machine without a GPU.
// usage: node --import tsx test/bench/gpu/gpuBench.ts BACKEND...   (THREADS=N, REPS=N, BENCH_MODEL=FILE)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { type BenchRow, withOneLibuvWorker, writeBenchResults } from "../support/benchProcess.js";

withOneLibuvWorker();

const { median, text } = await import("../support/directAnchor.js");
const { ensureFixtureModels } = await import("../../fixtures/models.js");
const { physicalCores } = await import("../../../sidecar/inference/llama/llamaRuntime.js");
const { startBenchKernel } = await import("../support/kernelBench.js");
const { tempDir, DIST } = await import("../../support/kernelProcess.js");

const BACKENDS = ["cuda", "vulkan", "cpu"] as const;
type Backend = (typeof BACKENDS)[number];
const wanted = process.argv.slice(2) as Backend[];
const unknown = wanted.filter((b) => !BACKENDS.includes(b));
if (wanted.length === 0 || unknown.length > 0)
  throw new Error(`usage: gpuBench.ts ${BACKENDS.join("|")}... (got ${unknown.join(", ") || "nothing"})`);

const threads = Number(process.env.THREADS ?? physicalCores());
const reps = Number(process.env.REPS ?? 3);
const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;
const cache = process.env.HEARTH_BENCH_CACHE ?? path.join(os.homedir(), ".cache", "hearth-bench");
const PREFILL = 512;
const DECODE = 64;
const CONTEXT = 4096;
const rows: BenchRow[] = [];
const notes: Record<string, string> = {};

/** llama-bench of `backend`'s build: mean tok/s of a prefill or a decode run, every layer offloaded. */
function llamaBenchTps(backend: Backend, spec: { prompt?: number; gen?: number }): number | null {
  const bin = path.join(cache, "llama.cpp", backend === "cpu" ? "build" : `build-${backend}`, "bin", "llama-bench");
  if (!fs.existsSync(bin)) {
    const build = backend === "cpu" ? "" : ` --backend ${backend}`;
    notes[`${backend} llama-bench`] = `not built (${bin}): test/support/buildLlamaTools.sh${build} llama-bench`;
    return null;
  }
  const args = ["-m", modelPath, "-t", String(threads), "-p", String(spec.prompt ?? 0), "-n", String(spec.gen ?? 0)];
  args.push("-b", "128", "-ub", "128", "-r", String(reps), "-o", "json", "-ngl", backend === "cpu" ? "0" : "99");
  const out = execFileSync(bin, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return (JSON.parse(out) as { avg_ts: number }[])[0]?.avg_ts ?? null;
}

/** node-llama-cpp's prebuilt `backend` binary, as Hearth loads it: prefill and decode tok/s, medians of `reps`. */
async function nodeLlamaCpp(backend: Backend): Promise<{ prefill: number; decode: number } | null> {
  let llama: Awaited<ReturnType<typeof getLlama>>;
  try {
    llama = await getLlama({
      build: "never",
      gpu: backend === "cpu" ? false : backend,
      maxThreads: threads,
      logLevel: LlamaLogLevel.error,
    });
  } catch (e) {
    notes[`${backend} node-llama-cpp`] = `no usable ${backend} binary or device: ${(e as Error).message}`;
    return null;
  }
  const model = await llama.loadModel({ modelPath, gpuLayers: backend === "cpu" ? 0 : "max" });
  const context = await model.createContext({ contextSize: CONTEXT, sequences: 1, batchSize: 128, threads });
  const tokens = (seed: number, n: number) => model.tokenize(text(seed, n * 2)).slice(0, n);
  const prefill: number[] = [];
  const decode: number[] = [];
  try {
    for (let r = 0; r < reps; r++) {
      const seq = context.getSequence();
      const t0 = performance.now();
      await seq.evaluateWithoutGeneratingNewTokens(tokens(6 + r, PREFILL));
      prefill.push(PREFILL / ((performance.now() - t0) / 1000));
      seq.dispose();
      const gen = context.getSequence();
      let n = 0;
      let t1 = 0;
      for await (const _ of gen.evaluate(tokens(3 + r, 16), { temperature: 0 })) {
        if (n === 0) t1 = performance.now();
        if (++n >= DECODE) break;
      }
      decode.push((n - 1) / ((performance.now() - t1) / 1000));
      gen.dispose();
    }
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
  return { prefill: median(prefill), decode: median(decode) };
}

/** The backend node-llama-cpp picks by itself, as the kernel's `gpu: "auto"` does. */
async function autoBackend(): Promise<string | false> {
  const llama = await getLlama({ build: "never", gpu: "auto", logLevel: LlamaLogLevel.error });
  const gpu = llama.gpu;
  await llama.dispose();
  return gpu;
}

/** Hearth's kernel on the backend it picks: decode tok/s of whole turns, first token excluded. */
async function kernelDecode(): Promise<number | null> {
  if (!fs.existsSync(path.join(DIST, "sidecar.mjs"))) {
    notes.kernel = "dist/sidecar.mjs is missing: run `npm run build` first";
    return null;
  }
  const root = tempDir("bench-gpu");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const k = await startBenchKernel({
    home: path.join(root, "home"),
    workspace,
    journalPath: path.join(root, "j.sqlite"),
    modelPath,
    threads,
    contextSize: CONTEXT,
  });
  try {
    const samples: number[] = [];
    for (let r = 0; r < reps; r++) {
      const d = await k.turn(await k.session(DECODE), text(3 + r, 24));
      samples.push((d.round.generatedTokens - 1) / ((d.timing.lastDelta! - d.timing.firstToken!) / 1000));
    }
    return median(samples);
  } finally {
    await k.kernel.client.request("kernel/shutdown", undefined);
    await k.kernel.exited;
    k.kernel.client.dispose();
  }
}

const row = (name: string, ours: number, anchor: number | null, anchorName: string): void => {
  rows.push({ name, ours, anchor, ratio: anchor === null ? null : ours / anchor, unit: "tok/s", anchorName });
};

const picked = await autoBackend();
for (const backend of wanted) {
  const ours = await nodeLlamaCpp(backend);
  if (!ours) continue;
  const pp = llamaBenchTps(backend, { prompt: PREFILL });
  const tg = llamaBenchTps(backend, { gen: DECODE });
  row(`${backend}: node-llama-cpp prefill ${PREFILL} tok/s (what Hearth loads)`, ours.prefill, pp, `llama-bench, ${backend} build`);
  row(`${backend}: node-llama-cpp decode ${DECODE} tok/s`, ours.decode, tg, `llama-bench, ${backend} build`);
  if ((backend === "cpu" ? false : backend) === picked) {
    const kernel = await kernelDecode();
    if (kernel !== null)
      row(`${backend}: Hearth kernel decode tok/s, whole turns (the backend it picks)`, kernel, tg, `llama-bench, ${backend} build`);
  }
  console.log(
    `${backend}: prefill ${ours.prefill.toFixed(1)} tok/s (llama-bench ${pp?.toFixed(1) ?? "—"}), decode ${ours.decode.toFixed(1)} tok/s (llama-bench ${tg?.toFixed(1) ?? "—"})`,
  );
}
for (const [what, why] of Object.entries(notes)) console.log(`${what}: ${why}`);
const out = writeBenchResults("gpu", {
  model: path.basename(modelPath),
  threads,
  reps,
  backends: wanted,
  autoBackend: picked,
  notes,
  rows,
});
console.log(`wrote ${out}`);

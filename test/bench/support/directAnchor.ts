// What the inference benchmarks share: deterministic prompt text, medians, and the anchor engine
// (node-llama-cpp called directly on the same model file with the same threads and batch size).
import { getLlama, type LlamaContextSequence, LlamaLogLevel } from "node-llama-cpp";

export const median = (a: number[]): number => {
  const v = [...a].sort((x, y) => x - y);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
};

const words =
  "the of and to in is was for on that with as by at from it his an were are which this be or has had not but first one their its new after who they have her she two been other when there all during into school time may years more most only over city some world would where later up such used many".split(
    " ",
  );

/** `n` pseudo-random common words from `seed`: the same text in every run. */
export function text(seed: number, n: number): string {
  let x = (seed * 2654435761) % 4294967296 || 1;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(words[x % words.length]!);
  }
  return out.join(" ");
}

export async function openDirectAnchor(opts: { modelPath: string; threads: number; contextSize: number; decodeTokens: number }) {
  const llama = await getLlama({ build: "never", gpu: "auto", maxThreads: opts.threads, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: opts.modelPath });
  const context = await model.createContext({ contextSize: opts.contextSize, sequences: 1, batchSize: 128, threads: opts.threads });
  const tokens = (seed: number, n: number) => model.tokenize(text(seed, n * 2)).slice(0, n);
  /** ms `work` takes on a fresh sequence that already holds `depth` evaluated tokens. */
  const timedAtDepth = async (depth: number, work: (seq: LlamaContextSequence) => Promise<unknown>): Promise<number> => {
    const seq = context.getSequence();
    if (depth > 0) await seq.evaluateWithoutGeneratingNewTokens(tokens(5, depth));
    const t0 = performance.now();
    await work(seq);
    const ms = performance.now() - t0;
    seq.dispose();
    return ms;
  };
  return {
    model,
    tokens,
    /** Greedy decode tok/s after a `depth`-token prompt, first token excluded. */
    async decodeTps(depth: number): Promise<number> {
      const seq = context.getSequence();
      let n = 0;
      let t0 = 0;
      for await (const _ of seq.evaluate(tokens(3, depth), { temperature: 0 })) {
        if (n === 0) t0 = performance.now();
        if (++n >= opts.decodeTokens) break;
      }
      const tps = (n - 1) / ((performance.now() - t0) / 1000);
      seq.dispose();
      return tps;
    },
    /**
     * ms of one step that evaluates `k` new tokens on a sequence holding `depth`, each with its logits
     * and a greedy sampling: a decode step (k = 1), or a token and k − 1 guesses to verify (input
     * lookup). Median of `reps`, after one unmeasured; the step's tokens are erased after each.
     */
    async stepMs(k: number, depth: number, reps: number): Promise<number> {
      const seq = context.getSequence();
      await seq.evaluateWithoutGeneratingNewTokens(tokens(5, depth));
      const step = tokens(7, k).map((t) => [t, { generateNext: { token: true } }] as const);
      const samples: number[] = [];
      for (let r = 0; r <= reps; r++) {
        const t0 = performance.now();
        await seq.controlledEvaluate(step.map(([t, o]) => [t, o]));
        if (r > 0) samples.push(performance.now() - t0);
        await seq.eraseContextTokenRanges([{ start: depth, end: depth + k }]);
      }
      seq.dispose();
      return median(samples);
    },
    /** ms to evaluate `n` new tokens on top of `depth` already-evaluated ones. */
    prefillMs(n: number, depth = 0): Promise<number> {
      return timedAtDepth(depth, (seq) => seq.evaluateWithoutGeneratingNewTokens(tokens(6, n)));
    },
    /**
     * ms from handing `n` new tokens to a sequence holding `depth` to the first token generated after
     * them (greedy): their evaluation, the last one's logits and one sampling, as a chat turn's first
     * token costs. `prefillMs` evaluates without logits, so it is a few ms cheaper than any first token.
     */
    firstTokenMs(n: number, depth = 0): Promise<number> {
      return timedAtDepth(depth, async (seq) => {
        for await (const _ of seq.evaluate(tokens(6, n), { temperature: 0 })) break;
      });
    },
    /**
     * Aggregate greedy decode tok/s of `k` sequences of one context, each after a `depth`-token prompt,
     * driven in lockstep (`Promise.all` over their generators, the probe's method): what llama.cpp's
     * batching gives on this machine. Depth matters: a batch attends over every sequence's cells.
     */
    async lockstepDecodeTps(k: number, depth = 24): Promise<number> {
      const shared = await model.createContext({
        contextSize: (depth + opts.decodeTokens + 64) * k,
        sequences: k,
        batchSize: 128,
        threads: opts.threads,
      });
      try {
        const gens = Array.from({ length: k }, (_, i) =>
          shared
            .getSequence()
            .evaluate(tokens(200 + i, depth), { temperature: 0 })
            [Symbol.asyncIterator](),
        );
        await Promise.all(gens.map((g) => g.next())); // prompts and first tokens
        const t0 = performance.now();
        let steps = 0;
        for (; steps < opts.decodeTokens - 1; steps++) if ((await Promise.all(gens.map((g) => g.next()))).some((r) => r.done)) break;
        const tps = (k * steps) / ((performance.now() - t0) / 1000);
        await Promise.all(gens.map((g) => g.return(undefined)));
        return tps;
      } finally {
        await shared.dispose();
      }
    },
    /**
     * Bytes of the KV cache of `sequences` sequences of `contextSize` tokens, computed from the model's
     * shape (K and V in f16 for every layer's KV heads), and node-llama-cpp's estimate of the whole
     * context on the CPU (KV cache and compute buffers: what contextSizing.ts sizes the context with).
     */
    async contextBytes(contextSize: number, sequences: number): Promise<{ kvCache: number; estimate: number }> {
      const metadata = model.fileInfo.metadata as unknown as Record<string, Record<string, unknown>> & {
        general: { architecture: string };
      };
      const arch = metadata[metadata.general.architecture] as {
        block_count: number;
        embedding_length: number;
        attention: { head_count: number; head_count_kv?: number; key_length?: number; value_length?: number };
      };
      const headDim = arch.embedding_length / arch.attention.head_count;
      const perToken =
        arch.block_count *
        (arch.attention.head_count_kv ?? arch.attention.head_count) *
        ((arch.attention.key_length ?? headDim) + (arch.attention.value_length ?? headDim)) *
        2;
      const estimate = await model.fileInsights.estimateContextResourceRequirementsV2({
        contextSize,
        sequences,
        batchSize: 128,
        modelGpuLayers: 0,
      });
      return { kvCache: perToken * contextSize * sequences, estimate: estimate.cpuRam };
    },
    async dispose(): Promise<void> {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

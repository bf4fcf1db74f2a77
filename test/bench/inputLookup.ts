// Input-lookup decoding (issue 30, items 1 and 2): the decode rate of an edit-shaped turn with and without
// the predictor, through the llama adapter, as ratios measured in this run. The copy fixture's greedy
// answer is the NATO alphabet: a turn whose prompt holds that text (a file read_file returned, to be
// written back) decodes an answer that copies its input; a turn whose prompt holds none of it decodes
// the same answer with nothing for the predictor to find, which shows what the lookup costs when it has
// nothing to offer; a turn whose prompt holds every pair of the answer's consecutive words, each
// followed by a full stop, has the predictor guess at every step and miss every guess, which shows what
// the back-off (guessBackoff.ts) leaves of their cost. Writes test/bench/results/inputLookup.json.
// usage: node --import tsx test/bench/inputLookup.ts [--quick]   (THREADS=N to override physical cores)
// On a model of real size, through the kernel and against llama-bench's decode (issue 30, item 2): the
// input-lookup section of wholeStack.ts (ONLY=inputLookup).
import { withOneLibuvWorker, writeBenchResults } from "./support/benchProcess.js";

withOneLibuvWorker();

const { median } = await import("./support/directAnchor.js");
const { LlamaAgentModel } = await import("../../sidecar/inference/llama/llamaAgentModel.js");
const { physicalCores } = await import("../../sidecar/inference/llama/llamaRuntime.js");
const { COPY_MODEL_ANSWER, ensureFixtureModels } = await import("../fixtures/models.js");
type RoundStats = import("../../sidecar/inference/llama/llamaAgentModel.js").RoundStats;
type ModelMessage = import("../../sidecar/agent/ports/model.js").ModelMessage;

const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const threads = Number(process.env.THREADS ?? physicalCores());
const REPS = quick ? 5 : 15;
const modelPath = ensureFixtureModels().copy;

const open = (inputLookup: boolean, stats: RoundStats[]) =>
  LlamaAgentModel.load({
    modelPath,
    threads,
    contextSize: 2048,
    maxSessions: 1,
    batchSize: 128,
    stateStore: null,
    inputLookup,
    onRoundStats: (s) => stats.push(s),
  });

/** The edit-shaped turn: a file's text as read_file returned it, to be written back. */
const turn = (fileText: string): ModelMessage[] => [
  { role: "system", text: "You edit files. Write the file back with the change asked for." },
  { role: "user", text: `notes.txt, as read_file returned it:\n${fileText}\n\nWrite notes.txt back with its words in order.` },
];
const COPIES = turn(COPY_MODEL_ANSWER);
// The same length of text, none of it the answer's words.
const COPIES_NOTHING = turn(COPY_MODEL_ANSWER.replace(/[a-z]+/gi, (w) => "x".repeat(w.length)));
const WORDS = COPY_MODEL_ANSWER.split(" ");
const MISSES = turn(
  WORDS.slice(1)
    .map((w, i) => `${WORDS[i]} ${w}.`)
    .join(" "),
);

/** Tokens a second after the first token: the decode rate, the prompt's evaluation left out. */
const decodeRate = (s: RoundStats) => (s.generatedTokens - 1) / ((s.totalMs - (s.firstTokenMs ?? 0)) / 1000);

const lookupStats: RoundStats[] = [];
const plainStats: RoundStats[] = [];
const lookup = await open(true, lookupStats);
const plain = await open(false, plainStats);
const both = () => ({ lookup: [] as number[], plain: [] as number[] });
const rates = { copies: both(), nothing: both(), misses: both() };
const confirmed = { validated: 0, refuted: 0 };
const missed = { validated: 0, refuted: 0, generated: 0 };
try {
  for (let r = -1; r < REPS; r++) {
    for (const [kind, messages] of [
      ["copies", COPIES],
      ["nothing", COPIES_NOTHING],
      ["misses", MISSES],
    ] as const) {
      // Alternating the two engines spreads the machine's noise over both; a fresh session key each time
      // makes every round evaluate its whole prompt, so each decodes from the same depth.
      for (const [engine, model, stats] of [
        ["lookup", lookup, lookupStats],
        ["plain", plain, plainStats],
      ] as const) {
        const round = await model.generate(
          { sessionKey: `${kind}-${r}`, messages, tools: [], options: { maxTokens: 64 }, signal: new AbortController().signal },
          () => undefined,
        );
        if (round.text !== COPY_MODEL_ANSWER) throw new Error(`${engine} answered ${JSON.stringify(round.text)}`);
        const s = stats.at(-1)!;
        if (r < 0) continue; // warm-up
        rates[kind][engine].push(decodeRate(s));
        if (engine === "lookup" && kind === "copies") {
          confirmed.validated += s.predictedTokens.validated;
          confirmed.refuted += s.predictedTokens.refuted;
        }
        if (engine === "lookup" && kind === "misses") {
          missed.validated += s.predictedTokens.validated;
          missed.refuted += s.predictedTokens.refuted;
          missed.generated += s.generatedTokens;
        }
      }
    }
  }
} finally {
  await lookup.dispose();
  await plain.dispose();
}

const rows = [
  {
    name: "input lookup: decode of an edit that copies its input",
    ours: median(rates.copies.lookup),
    anchor: median(rates.copies.plain),
    unit: "tok/s",
    anchorName: "the same adapter without input lookup",
  },
  {
    name: "input lookup: decode of an edit that copies nothing",
    ours: median(rates.nothing.lookup),
    anchor: median(rates.nothing.plain),
    unit: "tok/s",
    anchorName: "the same adapter without input lookup",
    target: ">= 0.97x",
  },
  {
    name: "input lookup: decode of an edit whose every guess misses",
    ours: median(rates.misses.lookup),
    anchor: median(rates.misses.plain),
    unit: "tok/s",
    anchorName: "the same adapter without input lookup",
    target: ">= 0.97x",
  },
  {
    name: "input lookup: guesses evaluated a step in the edit whose every guess misses",
    ours: (missed.validated + missed.refuted) / Math.max(1, missed.generated),
    anchor: null,
    unit: "guesses",
    anchorName: null,
  },
  {
    name: "input lookup: guesses confirmed, of those evaluated, in the copying edit",
    ours: (100 * confirmed.validated) / Math.max(1, confirmed.validated + confirmed.refuted),
    anchor: null,
    unit: "%",
    anchorName: null,
  },
].map((r) => ({ ...r, ratio: r.anchor === null ? null : r.ours / r.anchor }));

const out = writeBenchResults("inputLookup", { model: "tiny-qwen2-copy.gguf", threads, quick, reps: REPS, rates, confirmed, missed, rows });
for (const r of rows)
  console.log(
    `${r.name}: ${r.ours.toFixed(1)} ${r.unit}${r.anchor === null ? "" : ` vs ${r.anchor.toFixed(1)} (${r.ratio!.toFixed(2)}x)`}`,
  );
console.log(`wrote ${out}`);

// Where one turn's time goes outside native evaluation, at depth (issue 32): each part of the path a
// round takes before llama.cpp evaluates its new tokens, timed as the process's CPU time on
// the benchmark model's real vocabulary, for a conversation at turn 2, 20 and 60. Each part's figure
// at depth is a ratio to the same part at turn 2: a ratio that climbs with the turn is work that
// grows with the history. The parts, in a round's order (llamaAgentModel.ts):
// - history: the harness's messages to node-llama-cpp's chat history (chatHistory.ts);
// - render: the chat wrapper's context state for the whole history (once per call; a round makes
//   three: the condenser's measure, the round's own prompt, LlamaChat's context window);
// - tokenize: the rendered prompt to tokens, with node-llama-cpp's tokenizer (before issue 32) and
//   with tokenizeMemo.ts (each piece between special tokens remembered);
// - compare: the prompt against the tokens the sequence holds (chunkedPrefill.ts, and LlamaChat's
//   compareContextTokens), over the whole prefix;
// - journal: the kernel's view of the run before its first round (ControlPlane.turnContext: the pinned
//   snapshot and the session's committed messages, replayed from a real SQLite journal).
// usage: node --import tsx test/bench/turnProfile.ts [--quick]   (BENCH_MODEL=file.gguf)
// Writes test/bench/results/turnProfile.json (`rows`).
import { withOneLibuvWorker, writeBenchResults } from "./support/benchProcess.js";

withOneLibuvWorker();

const { getLlama, LlamaLogLevel, resolveChatWrapper } = await import("node-llama-cpp");
const { text, median } = await import("./support/directAnchor.js");
const { toChatHistory } = await import("../../sidecar/inference/llama/chatHistory.js");
const { commonPrefixLength } = await import("../../sidecar/inference/llama/kvStateStore.js");
const { TokenizeMemo } = await import("../../sidecar/inference/llama/tokenizeMemo.js");
const { ensureFixtureModels } = await import("../fixtures/models.js");
const { CLIENT, openFixture } = await import("../support/journalFixture.js");
type ModelMessage = import("../../sidecar/agent/ports/model.js").ModelMessage;

const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;
const TURNS = [2, 20, 60];
/** Timed repetitions of each part per depth (a part takes 0.01–10 ms). */
const REPS = quick ? 5 : 21;

// The process's CPU time (getrusage, microseconds): while a part runs, synchronously, no other thread
// works (nothing is evaluating), so it is the main thread's. A thread's schedstat is no good here:
// a running thread's figure is brought up to date only at scheduler ticks (4 ms on this VM).
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** Median CPU ms of `work`, over REPS runs. */
const cpuOf = (work: () => unknown): number => {
  const samples: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const c0 = cpu();
    work();
    samples.push(cpu() - c0);
  }
  return median(samples);
};

const llama = await getLlama({ build: "never", gpu: false, maxThreads: 1, logLevel: LlamaLogLevel.error });
const plain = await llama.loadModel({ modelPath });
const memoized = await llama.loadModel({ modelPath });
TokenizeMemo.install(memoized, 8192 * 16);
const wrapper = resolveChatWrapper(plain);

/** A conversation at `turn`: the system prompt, then 40-word questions and ~24-token answers, then the new question. */
function conversation(turn: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "system", text: `You are a careful coding assistant. ${text(1, 200)}` }];
  for (let t = 1; t < turn; t++) {
    messages.push({ role: "user", text: text(100 + t, 40) });
    messages.push({ role: "assistant", text: text(500 + t, 18), toolCalls: [] });
  }
  messages.push({ role: "user", text: text(100 + turn, 40) });
  return messages;
}

/** The same conversation journaled as the kernel does: one run a turn, its answer committed with it; the run of `turn` admitted. */
function journaled(turn: number): { turnContext: () => unknown; close: () => void } {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ title: "depth", model: "scripted:demo" });
  let turnId = "";
  for (let t = 1; t <= turn; t++) {
    const admitted = f.control.admitTurn(sessionId, text(100 + t, 40), CLIENT);
    turnId = admitted.turnId;
    f.control.transitionAttempt(turnId, admitted.attemptId, "starting");
    f.control.transitionAttempt(turnId, admitted.attemptId, "running");
    if (t < turn)
      f.control.finishTurn(turnId, "completed", undefined, { messages: [{ role: "assistant", text: text(500 + t, 18), toolCalls: [] }] });
  }
  return { turnContext: () => f.control.turnContext(turnId), close: () => f.close() };
}

type Part = "history" | "render" | "tokenize (node-llama-cpp)" | "tokenize (tokenizeMemo.ts)" | "compare" | "journal";
const figures = new Map<number, Record<Part, number> & { promptTokens: number }>();
for (const turn of TURNS) {
  const messages = conversation(turn);
  const history = () => [...toChatHistory(messages), { type: "model" as const, response: [] }];
  const render = () => wrapper.generateContextState({ chatHistory: history(), documentFunctionParams: true }).contextText;
  const contextText = render();
  const tokens = contextText.tokenize(plain.tokenizer);
  // What the sequence holds: everything but the new question's tokens (the last ~60).
  const held = tokens.slice(0, -60);
  contextText.tokenize(memoized.tokenizer); // the history's pieces remembered, as after the previous turn
  const journal = journaled(turn);
  figures.set(turn, {
    promptTokens: tokens.length,
    history: cpuOf(history),
    render: cpuOf(render),
    "tokenize (node-llama-cpp)": cpuOf(() => contextText.tokenize(plain.tokenizer)),
    "tokenize (tokenizeMemo.ts)": cpuOf(() => contextText.tokenize(memoized.tokenizer)),
    compare: cpuOf(() => commonPrefixLength(held.slice(), tokens)),
    journal: cpuOf(journal.turnContext),
  });
  journal.close();
}
await memoized.dispose();
await plain.dispose();
await llama.dispose();

const rows: { name: string; ours: number; anchor: number; ratio: number; unit: string; anchorName: string }[] = [];
const base = figures.get(2)!;
for (const turn of TURNS.slice(1)) {
  const f = figures.get(turn)!;
  for (const part of Object.keys(base).filter((k) => k !== "promptTokens") as Part[])
    rows.push({
      name: `${part}, CPU ms per call, turn ${turn} (${f.promptTokens} prompt tokens)`,
      ours: f[part],
      anchor: base[part],
      ratio: f[part] / base[part],
      unit: "ms",
      anchorName: `the same at turn 2 (${base.promptTokens} prompt tokens)`,
    });
}
writeBenchResults("turnProfile", { model: modelPath, reps: REPS, figures: Object.fromEntries(figures), rows });
for (const [turn, f] of figures) console.log(`turn ${turn}: ${JSON.stringify(f)}`);

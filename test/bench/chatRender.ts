// Chat render benchmark (issue 15 item 1): "a 2,000-token markdown answer renders as fast as the model
// decodes". The anchor is the decode time per token of the bench model, measured in this run with
// node-llama-cpp on the same machine (greedy, physical cores). Ours is the chat view's own streaming
// path in a real browser (headless Chromium, the e2e's): the answer's deltas, one per model token,
// are fed to webview/answerView.ts's AnswerView at that decode rate (at least 60 tok/s: slower, each
// token has its own frame anyway, so the renders are the same); it re-renders at most once per
// animation frame (markdown-it + highlight.js + DOMPurify, code-block bars, then the transcript's
// scroll-follow that forces layout); only the tail after the last completed block is re-rendered
// (streamBoundary.ts). Every frame callback is timed; busy time / tokens is the render cost per
// token. Also: that re-render forced at every token (no frame coalescing, what a faster model would cost)
// and the longest single re-render against one 60 Hz frame. Paint is not counted (it is off the
// main thread's JavaScript and not comparable across headless runs).
// usage: node --import tsx test/bench/chatRender.ts [--quick]   (THREADS=N; BENCH_MODEL=file.gguf)
// Writes test/bench/results/chatRender.json (`rows`). Shared machine: compare ratios within a run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withOneLibuvWorker, writeBenchResults } from "./support/benchProcess.js";

withOneLibuvWorker();

const { openDirectAnchor, median } = await import("./support/directAnchor.js");
const { physicalCores } = await import("../../sidecar/inference/llama/llamaRuntime.js");
const { ensureFixtureModels } = await import("../fixtures/models.js");
const { findTools } = await import("../e2e/support/tools.js");
const { launchBrowser } = await import("../e2e/support/browser.js");
const { bundlePage } = await import("./support/benchPage.js");
type BenchPage = import("./support/benchPage.js").BenchPage;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const TOKENS = 2000;
const threads = Number(process.env.THREADS ?? physicalCores());
const modelPath = process.env.BENCH_MODEL ?? ensureFixtureModels({ bench: true }).bench;

interface Row {
  name: string;
  ours: number;
  anchor: number;
  ratio: number;
  unit: string;
  anchorName: string;
}
const rows: Row[] = [];
const row = (name: string, ours: number, anchor: number, unit: string, anchorName: string) =>
  rows.push({ name, ours, anchor, ratio: ours / anchor, unit, anchorName });

/** A markdown answer as a coding model writes one: headings, prose, lists, a table, code in several languages. */
function answerMarkdown(section: number): string {
  return [
    `## Step ${section}: parse the input\n\n`,
    `The parser reads **one line at a time** and keeps \`state\` between calls, so a partial line is never lost. `,
    `It returns \`null\` at the end of the stream and throws only on a malformed header.\n\n`,
    "- the header is checked once\n- each record is validated with its schema\n- errors name the line number\n\n",
    "```ts\nexport function parseLine(state: ParserState, line: string): Record | null {\n",
    '  if (line.trim() === "") return null;\n  const [key, ...rest] = line.split(":");\n',
    `  state.count += ${section};\n  return { key: key.trim(), value: rest.join(":").trim(), at: state.count };\n}\n\`\`\`\n\n`,
    "| field | type | meaning |\n| --- | --- | --- |\n| key | string | the name before the colon |\n| value | string | the rest of the line |\n\n",
    '```python\ndef read_records(path):\n    with open(path, encoding="utf-8") as f:\n',
    '        for number, line in enumerate(f, 1):\n            yield number, line.rstrip("\\n")\n```\n\n',
    'Run the tests with:\n\n```bash\nnpm test -- --grep parser && echo "all good"\n```\n\n',
    `> Note: a file over 1 MiB is read in chunks; see [the docs](https://example.invalid/docs#${section}).\n\n`,
  ].join("");
}

// ---- anchor: the bench model's decode rate, node-llama-cpp direct, this run ----
const direct = await openDirectAnchor({ modelPath, threads, contextSize: 4096, decodeTokens: quick ? 32 : 64 });
let deltas: string[];
let decodeTps: number;
try {
  await direct.decodeTps(32); // warm-up
  const tps: number[] = [];
  for (let r = 0; r < (quick ? 1 : 3); r++) tps.push(await direct.decodeTps(32));
  decodeTps = median(tps);
  // The answer as the model's tokens: one delta per token, as the kernel streams them.
  let markdown = "";
  for (let s = 1; direct.model.tokenize(markdown).length < TOKENS; s++) markdown += answerMarkdown(s);
  const tokens = direct.model.tokenize(markdown).slice(0, TOKENS);
  deltas = tokens.map((t) => direct.model.detokenize([t]));
} finally {
  await direct.dispose();
}
const msPerToken = 1000 / decodeTps;
// A decode slower than the frame rate gives every token its own frame, so the view renders once per
// token at any rate up to 60 tok/s: the stream is fed at max(decode rate, 60 tok/s), the same renders
// in a bounded wall time (2,000 tokens at 5 tok/s would take 400 s).
const feedMsPerToken = Math.min(msPerToken, 1000 / 60);
console.log(
  `decode ${decodeTps.toFixed(1)} tok/s (${msPerToken.toFixed(1)} ms/token); streaming ${TOKENS} tokens, one every ${feedMsPerToken.toFixed(1)} ms`,
);

// ---- ours: the view's AnswerView in Chromium, fed at that rate ----
const page = await bundlePage(
  `
        import { AnswerView } from "./webview/answerView.js";
        import { MarkdownRenderer } from "./webview/markdown.js";
        const renderer = new MarkdownRenderer(window);
        const code = { copy() {}, insert() {}, apply() {} };
        const scroller = document.getElementById("transcript");
        // The transcript's scroll-follow (transcript.ts): reading scrollHeight forces layout per render.
        const follow = () => { scroller.scrollTop = scroller.scrollHeight; };
        window.bench = {
          /** Streams the deltas at msPerToken through the view's own frame-coalesced path. */
          stream(deltas, msPerToken) {
            let busy = 0, frames = 0, longest = 0;
            const raf = window.requestAnimationFrame.bind(window);
            window.requestAnimationFrame = (cb) => raf((t) => {
              const t0 = performance.now(); cb(t); const ms = performance.now() - t0;
              busy += ms; frames++; longest = Math.max(longest, ms);
            });
            const view = new AnswerView(renderer, code, follow);
            scroller.replaceChildren(view.node);
            const start = performance.now();
            return new Promise((resolve) => {
              let sent = 0;
              const tick = () => {
                const due = Math.min(deltas.length, Math.floor((performance.now() - start) / msPerToken) + 1);
                for (; sent < due; sent++) view.append(deltas[sent]);
                if (sent < deltas.length) { setTimeout(tick, Math.max(0, start + sent * msPerToken - performance.now())); return; }
                // The turn's completion renders at once (flush), as the transcript does.
                raf(() => {
                  const t0 = performance.now(); view.flush(); const ms = performance.now() - t0;
                  busy += ms; frames++; longest = Math.max(longest, ms);
                  window.requestAnimationFrame = raf;
                  resolve({ busy, frames, longest, wallMs: performance.now() - start, blocks: view.node.querySelectorAll(".code-block").length });
                });
              };
              tick();
            });
          },
          /** The view's streaming re-render forced at every token (no frame coalescing): what a model faster than the frame rate would cost without it. */
          perToken(deltas, every) {
            const view = new AnswerView(renderer, code, follow);
            scroller.replaceChildren(view.node);
            let busy = 0, renders = 0;
            for (let i = 0; i < deltas.length; i++) {
              view.append(deltas[i]);
              if (i % every !== every - 1 && i !== deltas.length - 1) continue;
              // renderStreaming is private to TypeScript only; this page is bundled without type checks.
              const t0 = performance.now(); view.renderStreaming(); busy += performance.now() - t0; renders++;
            }
            view.flush();
            return { busy, renders };
          },
        };`,
  "chatRenderPage.ts",
);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-render-"));
const browser = await launchBrowser(findTools(), scratch);
const p = browser.page as unknown as BenchPage;
interface StreamStats {
  busy: number;
  frames: number;
  longest: number;
  wallMs: number;
  blocks: number;
}
let stream: StreamStats;
let perToken: { busy: number; renders: number };
try {
  const css = fs.readFileSync(path.join(root, "media/chat.css"), "utf8");
  await p.setContent(
    `<!DOCTYPE html><html><head><style>${css}</style></head><body><div id="app"><div id="transcript" class="transcript" style="width:380px;height:700px"></div></div></body></html>`,
  );
  await p.addScriptTag({ content: page });
  // A warm-up stream of the first 200 tokens (JIT, highlight.js grammars), then the measured one.
  await p.evaluate(
    ([d, ms]) => (window as unknown as { bench: { stream(d: string[], ms: number): Promise<StreamStats> } }).bench.stream(d, ms),
    [deltas.slice(0, 200), 1] as [string[], number],
  );
  stream = await p.evaluate(
    ([d, ms]) => (window as unknown as { bench: { stream(d: string[], ms: number): Promise<StreamStats> } }).bench.stream(d, ms),
    [deltas, feedMsPerToken] as [string[], number],
  );
  perToken = await p.evaluate(
    ([d, every]) =>
      (window as unknown as { bench: { perToken(d: string[], every: number): { busy: number; renders: number } } }).bench.perToken(
        d,
        every,
      ),
    [deltas, quick ? 8 : 1] as [string[], number],
  );
} finally {
  await browser.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}

const model = path.basename(modelPath);
const decodeName = `decode time per token, ${model} via node-llama-cpp (${decodeTps.toFixed(1)} tok/s, ${threads} threads, this run)`;
row(
  `render ms per token, ${TOKENS}-token answer streamed at the decode rate (frame-coalesced, as the view does)`,
  stream.busy / TOKENS,
  msPerToken,
  "ms/token",
  decodeName,
);
row(
  `render ms per token, the streaming re-render forced at every token (no frame coalescing; ${perToken.renders} renders)`,
  perToken.busy / perToken.renders,
  msPerToken,
  "ms/token",
  decodeName,
);
row("longest single re-render while streaming (the whole answer at the end)", stream.longest, 1000 / 60, "ms", "one 60 Hz frame");

const results = {
  model,
  threads,
  quick,
  note: "shared machine: figures are noisy; render time excludes paint",
  answer: { tokens: TOKENS, characters: deltas.join("").length, codeBlocks: stream.blocks },
  stream: { frames: stream.frames, busyMs: stream.busy, wallMs: stream.wallMs, decodeTps, feedMsPerToken },
  rows,
};
const out = writeBenchResults("chatRender", results);
for (const r of rows)
  console.log(
    `${r.name}: ${r.ours.toFixed(2)} ${r.unit} vs ${r.anchor.toFixed(2)} ${r.unit} (${r.anchorName}) → ratio ${r.ratio.toFixed(3)}`,
  );
console.log(`wrote ${path.relative(process.cwd(), out)}`);

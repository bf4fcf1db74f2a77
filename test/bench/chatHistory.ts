// Opening a long chat (issue 26 item 4): "a session of 10,000 messages opens with its last turn
// visible in ≤ 150 ms of kernel + render time, and memory stays bounded". The session is seeded
// into a real journal file (support/seedHistory.ts: 2,500 turns of a question, a tool call, its
// result and an answer). Kernel: session/history's latest page as the chat asks for it
// (ControlPlane.history, cut to whole turns, the view's message built and sent through JSON, as the
// wire does). Render: the chat view's own Transcript (webview/transcript.ts) in headless Chromium
// (the e2e's, as chatRender.ts), from the message's validation to the layout that puts the last
// turn in view, checked visible. Anchor: the same for the whole history at once, this run.
// Then the person scrolls up through the whole chat: each older page's kernel + render time, how far
// the message they were looking at moved (it must not), and how many messages the DOM holds.
// usage: node --import tsx test/bench/chatHistory.ts [--quick]   Writes test/bench/results/chatHistory.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRow, writeBenchResults } from "./support/benchProcess.js";
import { seedHistory } from "./support/seedHistory.js";
import { type BenchPage, bundlePage } from "./support/benchPage.js";
import { uuidv7 } from "../../shared/ids.js";
import { openJournal } from "../../sidecar/journal/journal.js";
import { ControlPlane } from "../../sidecar/kernel/control/controlPlane.js";
import { HISTORY_PAGE_MESSAGES, olderPageMessage, transcriptMessage, wholeTurns } from "../../extension/chat/transcriptMessage.js";
import { findTools } from "../e2e/support/tools.js";
import { launchBrowser } from "../e2e/support/browser.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const quick = process.argv.includes("--quick") || process.env.QUICK === "1";
const MESSAGES = 10_000;
const OPENS = quick ? 3 : 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-history-"));
const file = path.join(dir, "long-chat.sqlite");
seedHistory(file, MESSAGES, MESSAGES / 4);
const journal = openJournal(file);
const control = new ControlPlane(journal, { ownerId: "local:bench", workspace: "/ws", bootEpoch: uuidv7() });
const sessionId = "s000000000";

/** The kernel's part, timed: the history asked, the view's message built, through JSON as the wire carries it. */
function kernel<T>(build: () => T): { ms: number; wire: string } {
  const t0 = process.hrtime.bigint();
  const wire = JSON.stringify(build());
  return { ms: msSince(t0), wire };
}
const latestPage = () => kernel(() => transcriptMessage(wholeTurns(control.history(sessionId, { limit: HISTORY_PAGE_MESSAGES }))));
const wholeHistory = () => kernel(() => transcriptMessage(control.history(sessionId)));
const olderPage = (beforeSeq: number) =>
  kernel(() => olderPageMessage(wholeTurns(control.history(sessionId, { limit: HISTORY_PAGE_MESSAGES, beforeSeq }))));

const page = await bundlePage(
  `
        import { ToWebview } from "./shared/protocol/webview.js";
        import { Transcript } from "./webview/transcript.js";
        import { MAX_KEPT_MESSAGES } from "./webview/historyPager.js";
        import { MarkdownRenderer } from "./webview/markdown.js";
        import { z } from "zod";
        z.config({ jitless: true });
        const noop = () => {};
        let transcript;
        let asked = [];
        const make = () => {
          transcript = new Transcript(
            { renderer: new MarkdownRenderer(window), code: { copy: noop, insert: noop, apply: noop },
              actions: { selectModel: noop, compact: noop, restartKernel: noop, showLog: noop, continueInNewChat: noop, keepChatModel: noop },
              announce: noop, onContext: noop },
            { requestOlder: (sessionId, beforeSeq) => asked.push(beforeSeq), requestLatest: noop },
          );
          document.getElementById("app").replaceChildren(transcript.node);
        };
        const visible = (node) => {
          const v = transcript.node.getBoundingClientRect(), r = node.getBoundingClientRect();
          return r.bottom > v.top && r.top < v.bottom;
        };
        window.bench = {
          maxKept: MAX_KEPT_MESSAGES,
          /** A fresh view opens the chat: validate, render, lay out; is its last turn on screen? */
          open(wire) {
            make();
            asked = [];
            const t0 = performance.now();
            const m = ToWebview.parse(JSON.parse(wire));
            transcript.show(m.messages, { sessionId: m.sessionId, condensations: m.condensations, calls: m.calls, hasOlder: m.hasOlder });
            const users = transcript.node.querySelectorAll('[data-testid="user-message"]');
            const last = users[users.length - 1];
            const replies = transcript.node.querySelectorAll(".msg.assistant");
            const lastVisible = visible(last) && visible(replies[replies.length - 1]);
            return { ms: performance.now() - t0, lastVisible, lastText: last.textContent, rendered: Number(transcript.node.dataset.historyMessages) };
          },
          /** The reader scrolls to the top: the pager asks for the page before the oldest message shown. */
          scrollUp() {
            asked = [];
            transcript.node.scrollTop = 0;
            transcript.node.dispatchEvent(new Event("scroll"));
            return asked[0] ?? null;
          },
          /** The older page arrives: rendered above; how far the message that was at the top moved on screen. */
          older(wire) {
            const first = transcript.node.querySelector(".history-page > *");
            const before = first.getBoundingClientRect().top;
            const t0 = performance.now();
            const m = ToWebview.parse(JSON.parse(wire));
            transcript.older(m.sessionId, m.messages, m.calls, m.hasOlder);
            void transcript.node.scrollHeight;
            const ms = performance.now() - t0;
            return { ms, moved: first.getBoundingClientRect().top - before, rendered: Number(transcript.node.dataset.historyMessages),
              firstText: transcript.node.querySelector('[data-testid="user-message"] .body')?.textContent ?? null };
          },
        };`,
  "chatHistoryPage.ts",
);

interface Opened {
  ms: number;
  lastVisible: boolean;
  lastText: string;
  rendered: number;
}
interface Older {
  ms: number;
  moved: number;
  rendered: number;
  firstText: string | null;
}
type Bench = { maxKept: number; open(w: string): Opened; scrollUp(): number | null; older(w: string): Older };

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-history-browser-"));
const browser = await launchBrowser(findTools(), scratch);
const p = browser.page as unknown as BenchPage;
const rows: BenchRow[] = [];
try {
  const css = fs.readFileSync(path.join(root, "media/chat.css"), "utf8");
  // The side bar's chat at the e2e's 1400×900 window: a 380 px wide, 700 px tall transcript.
  await p.setContent(
    `<!DOCTYPE html><html><head><style>${css} #app { display: flex; flex-direction: column; width: 380px; height: 700px; }</style></head><body><div id="app"></div></body></html>`,
  );
  await p.addScriptTag({ content: page });
  // The view's bound (webview/historyPager.ts): imported in the page, since the view's parts need a DOM.
  const MAX_KEPT_MESSAGES = await p.evaluate(() => (window as unknown as { bench: Bench }).bench.maxKept, undefined);
  const lastQuestion = "read a.txt and tell me what it says";
  const open = async (side: () => { ms: number; wire: string }) => {
    const totals: number[] = [];
    const kernels: number[] = [];
    let opened: Opened | undefined;
    for (let i = 0; i < OPENS + 1; i++) {
      const k = side();
      opened = await p.evaluate((w) => (window as unknown as { bench: Bench }).bench.open(w), k.wire);
      if (!opened.lastVisible || !opened.lastText.includes(lastQuestion))
        throw new Error(`the last turn is not in view: ${JSON.stringify(opened)}`);
      if (i === 0) continue; // warm-up (JIT, first layout)
      kernels.push(k.ms);
      totals.push(k.ms + opened.ms);
    }
    return { totalMs: median(totals), kernelMs: median(kernels), rendered: opened!.rendered };
  };
  const paged = await open(latestPage);
  const whole = await open(wholeHistory);

  // Scrolling up through the whole chat, a page at a time.
  await p.evaluate((w) => (window as unknown as { bench: Bench }).bench.open(w), latestPage().wire);
  const olderTimes: number[] = [];
  let maxMoved = 0;
  let maxRendered = 0;
  let pages = 1;
  let firstText: string | null = null;
  for (;;) {
    const beforeSeq = await p.evaluate(() => (window as unknown as { bench: Bench }).bench.scrollUp(), undefined);
    if (beforeSeq === null) break;
    const k = olderPage(beforeSeq);
    const o = await p.evaluate((w) => (window as unknown as { bench: Bench }).bench.older(w), k.wire);
    olderTimes.push(k.ms + o.ms);
    maxMoved = Math.max(maxMoved, Math.abs(o.moved));
    maxRendered = Math.max(maxRendered, o.rendered);
    firstText = o.firstText;
    pages++;
  }
  if (pages * HISTORY_PAGE_MESSAGES < MESSAGES) throw new Error(`scrolling up stopped after ${pages} pages`);
  if (maxMoved > 1) throw new Error(`an older page moved what the reader was looking at by ${maxMoved} px`);
  console.log(
    `opening: latest page ${paged.totalMs.toFixed(1)} ms (kernel ${paged.kernelMs.toFixed(1)} ms, ${paged.rendered} messages drawn); ` +
      `whole history ${whole.totalMs.toFixed(1)} ms (kernel ${whole.kernelMs.toFixed(1)} ms, ${whole.rendered} drawn)`,
  );
  console.log(
    `scrolled up through ${pages} pages to "${firstText}": older page median ${median(olderTimes).toFixed(1)} ms, ` +
      `the reader's message moved at most ${maxMoved.toFixed(2)} px, at most ${maxRendered} messages in the DOM`,
  );
  rows.push(
    {
      name: `opening a ${MESSAGES.toLocaleString("en")}-message chat with its last turn in view: kernel (latest page of ${HISTORY_PAGE_MESSAGES}) + render in Chromium, median of ${OPENS}`,
      ours: paged.totalMs,
      anchor: whole.totalMs,
      ratio: paged.totalMs / whole.totalMs,
      unit: "ms",
      anchorName: "the whole history sent and drawn at once (before paging), this run",
      target: "<= 150 ms",
    },
    {
      name: "an older page as the person scrolls up: kernel + render, median over the whole chat",
      ours: median(olderTimes),
      anchor: null,
      ratio: null,
      unit: "ms",
      anchorName: null,
    },
    {
      name: `history messages in the DOM at most while scrolling up through all ${MESSAGES.toLocaleString("en")} (bound: ${MAX_KEPT_MESSAGES})`,
      ours: maxRendered,
      anchor: MESSAGES,
      ratio: maxRendered / MESSAGES,
      unit: "messages",
      anchorName: "the whole chat drawn at once",
      target: `<= ${MAX_KEPT_MESSAGES} messages`,
    },
  );
} finally {
  await browser.close();
  journal.close();
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
}
const out = writeBenchResults("chatHistory", { quick, messages: MESSAGES, pageMessages: HISTORY_PAGE_MESSAGES, rows });
for (const r of rows) console.log(`${r.name}: ${r.ours.toFixed(1)} ${r.unit}${r.anchor === null ? "" : ` vs ${r.anchor.toFixed(1)}`}`);
console.log(`wrote ${path.relative(process.cwd(), out)}`);

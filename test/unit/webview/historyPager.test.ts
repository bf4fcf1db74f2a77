// The chat view's paged history (issue 26 item 4) in a real DOM (jsdom), through webview/transcript.ts:
// a long chat opens at its latest page with its last turn last; scrolling near the top asks once for
// the page before the oldest message shown, which goes in above in order; the view keeps at most
// MAX_KEPT_MESSAGES history messages (the newest pages go, "Back to the latest" brings them back);
// an answer for a chat the view left is dropped; a page that could not be read says why and retries.
// jsdom has no layout: the transcript's scroll geometry is given to it (a 500 px view of 20,000 px).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");
const { MAX_KEPT_MESSAGES } = await import("../../../webview/historyPager.js");

const SESSION = "01900000-0000-7000-8000-00000000000a";

/** Turn n of a chat: the person's message (seq 2n-1) and Hearth's answer (seq 2n). */
function turns(from: number, to: number): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (let n = from; n <= to; n++)
    out.push(
      { seq: 2 * n - 1, role: "user", text: `question ${n}` } as HistoryMessage,
      { seq: 2 * n, role: "assistant", text: `answer ${n}`, toolCalls: [] } as unknown as HistoryMessage,
    );
  return out;
}

function view() {
  const older: { sessionId: string; beforeSeq: number }[] = [];
  let latest = 0;
  const transcript = testTranscript(window as unknown as Window, {
    requestOlder: (sessionId, beforeSeq) => older.push({ sessionId, beforeSeq }),
    requestLatest: () => latest++,
  });
  const node = transcript.node;
  let top = 0;
  Object.defineProperty(node, "scrollHeight", { get: () => 20_000 });
  Object.defineProperty(node, "clientHeight", { get: () => 500 });
  Object.defineProperty(node, "scrollTop", { get: () => top, set: (v: number) => (top = Math.max(0, Math.min(v, 19_500))) });
  window.document.body.replaceChildren(node as unknown as Node);
  const scrollTo = (y: number) => {
    node.scrollTop = y;
    node.dispatchEvent(new window.Event("scroll"));
  };
  const questions = () => Array.from(node.querySelectorAll('[data-testid="user-message"] .body'), (b) => b.textContent);
  return { transcript, node, older, latestAsked: () => latest, scrollTo, questions };
}

describe("a long chat in pages (issue 26 item 4)", () => {
  it("opens at the latest page, its last turn last, and asks for the older page only when scrolled near the top, once", () => {
    const v = view();
    v.transcript.show(turns(901, 1000), { sessionId: SESSION, hasOlder: true });
    assert.equal(v.questions().at(-1), "question 1000");
    assert.equal(v.node.scrollTop, 19_500, "opened at the bottom: the last turn in view");
    assert.deepEqual(v.older, [], "at the bottom nothing older is asked for");
    v.scrollTo(10_000);
    assert.deepEqual(v.older, []);
    v.scrollTo(100);
    v.scrollTo(50);
    assert.deepEqual(v.older, [{ sessionId: SESSION, beforeSeq: 1801 }], "one request, for the page before the oldest message shown");
    assert.match(v.node.querySelector('[data-testid="history-more"]')?.textContent ?? "", /Loading older messages/);
  });

  it("puts the older page above, in order, and asks for the one before it on the next scroll up", () => {
    const v = view();
    v.transcript.show(turns(901, 1000), { sessionId: SESSION, hasOlder: true });
    v.scrollTo(0);
    v.transcript.older(SESSION, turns(801, 900), {}, true);
    const q = v.questions();
    assert.equal(q.length, 200);
    assert.deepEqual(q.slice(98, 102), ["question 899", "question 900", "question 901", "question 902"]);
    assert.deepEqual(
      q,
      q.map((_, i) => `question ${801 + i}`),
      "oldest first, no gap and no repeat across the page edge",
    );
    v.scrollTo(0);
    assert.deepEqual(
      v.older.map((o) => o.beforeSeq),
      [1801, 1601],
    );
    v.transcript.older(SESSION, turns(1, 800), {}, false);
    assert.equal(v.questions()[0], "question 1");
    assert.equal(
      v.node.querySelector<HTMLElement>('[data-testid="history-more"]')?.hidden,
      true,
      "the start of the chat: nothing more to load",
    );
  });

  it(`keeps at most ${MAX_KEPT_MESSAGES} history messages: the newest pages go, and Back to the latest asks for them`, () => {
    const v = view();
    v.transcript.show(turns(951, 1000), { sessionId: SESSION, hasOlder: true });
    for (let last = 950; last > 0; last -= 50) {
      v.scrollTo(0);
      v.transcript.older(SESSION, turns(last - 49, last), {}, last > 50);
      assert.ok(v.node.querySelectorAll(".msg").length <= MAX_KEPT_MESSAGES, `${v.node.querySelectorAll(".msg").length} messages rendered`);
    }
    const q = v.questions();
    assert.equal(q[0], "question 1", "the oldest page is the one being read");
    assert.equal(q.length * 2, MAX_KEPT_MESSAGES);
    assert.deepEqual(
      q,
      q.map((_, i) => `question ${1 + i}`),
    );
    const back = v.node.querySelector<HTMLElement>('[data-testid="history-latest"]');
    assert.ok(back, "the bar where the newest pages were");
    back.click();
    assert.equal(v.latestAsked(), 1);
  });

  it("drops an older page of a chat the view left, and a page that could not be read says why and tries again", () => {
    const v = view();
    v.transcript.show(turns(901, 1000), { sessionId: SESSION, hasOlder: true });
    v.scrollTo(0);
    v.transcript.older("01900000-0000-7000-8000-00000000000b", turns(801, 900), {}, true);
    assert.equal(v.questions().length, 100, "another chat's page is not shown here");
    v.transcript.older(SESSION, [], {}, true, "the kernel restarted");
    const more = v.node.querySelector('[data-testid="history-more"]');
    assert.match(more?.textContent ?? "", /could not be loaded: the kernel restarted/);
    more?.querySelector<HTMLElement>('[data-testid="history-load-older"]')?.click();
    assert.deepEqual(
      v.older.map((o) => o.beforeSeq),
      [1801, 1801],
    );
  });
});

describe("a chat being read says so (issue 25 item 11)", () => {
  it("an empty view shows 'Loading this chat…' until the transcript comes; a shown chat is never covered", () => {
    const v = view();
    v.transcript.loading();
    assert.equal(v.node.querySelector('[data-testid="transcript-loading"]')?.textContent, "Loading this chat…");
    v.transcript.show(turns(1, 2), { sessionId: SESSION });
    assert.equal(v.node.querySelector('[data-testid="transcript-loading"]'), null, "the transcript replaces it");
    v.transcript.loading();
    assert.equal(v.node.querySelector('[data-testid="transcript-loading"]'), null, "shown again over a chat: never");
    assert.deepEqual(v.questions(), ["question 1", "question 2"]);
  });
});

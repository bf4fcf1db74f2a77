// A long chat in pages (issue 26 item 4): the view opens a session at its latest page (its last turn
// in view at once) and asks for the page before the oldest message it holds as the person scrolls
// near the top (or presses "Load older messages"). An older page goes in above without moving what
// the reader looks at. Memory is bounded: past MAX_KEPT_MESSAGES history messages the newest pages
// are let go, and a bar where they were brings the latest page back.
import { button } from "./components/index.js";
import { el } from "./dom.js";

/** History messages the view keeps rendered (about five pages of the extension's 200). */
export const MAX_KEPT_MESSAGES = 1_000;
/** How near the top (px) a scroll asks for the older page: before the reader reaches the end of what is there. */
const NEAR_TOP_PX = 400;

export interface PagerDeps {
  /** Ask the extension for the page before `beforeSeq` (chat/older). */
  requestOlder(sessionId: string, beforeSeq: number): void;
  /** Ask for the latest page again (chat/latest): the newest pages were let go. */
  requestLatest(): void;
}

/** One rendered page: its first message's seq and how many messages it holds. */
interface Page {
  node: HTMLElement;
  firstSeq: number;
  messages: number;
}

export class HistoryPager {
  /** Above the pages: "Load older messages", or why it could not. */
  readonly top = el("div", "history-more", undefined, "history-more");
  /** The pages, oldest first (display: contents, so the messages lay out as the transcript's own). */
  readonly pages = el("div", "history-pages", undefined, "history-pages");
  /** Below the pages, shown once the newest were let go: "Back to the latest". */
  readonly bottom = el("div", "history-newer", undefined, "history-newer");
  private kept: Page[] = [];
  private sessionId: string | undefined;
  private hasOlder = false;
  private loading = false;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly deps: PagerDeps,
  ) {
    this.top.hidden = true;
    this.bottom.hidden = true;
    this.bottom.setAttribute("role", "note");
    scroller.addEventListener("scroll", () => this.maybeLoad(), { passive: true });
  }

  /** A session's latest page, shown: the pager starts over with it (none: an empty or new chat). */
  reset(sessionId: string | undefined, page: HTMLElement, firstSeq: number | undefined, messages: number, hasOlder: boolean): void {
    this.sessionId = sessionId;
    this.kept = firstSeq === undefined ? [] : [{ node: page, firstSeq, messages }];
    this.pages.replaceChildren(page);
    this.hasOlder = hasOlder && firstSeq !== undefined;
    this.loading = false;
    this.bottom.hidden = true;
    this.bottom.replaceChildren();
    this.drawTop();
  }

  /** The seq of the oldest message the view holds (the next older page ends before it). */
  get oldestSeq(): number | undefined {
    return this.kept[0]?.firstSeq;
  }

  /** Messages rendered now across the kept pages (the bound: MAX_KEPT_MESSAGES, or one page if larger). */
  get keptMessages(): number {
    return this.kept.reduce((n, p) => n + p.messages, 0);
  }

  /** Asks for the older page once the reader nears the top (or the page does not fill the view). */
  maybeLoad(): void {
    if (this.scroller.scrollTop < NEAR_TOP_PX || this.scroller.scrollHeight <= this.scroller.clientHeight) this.loadOlder();
  }

  loadOlder(): void {
    const before = this.oldestSeq;
    if (!this.hasOlder || this.loading || !this.sessionId || before === undefined) return;
    this.loading = true;
    this.drawTop();
    this.deps.requestOlder(this.sessionId, before);
  }

  /**
   * The older page arrived: it goes in above the kept pages and the reader's view stays where it was
   * (the first message they could see keeps its place on screen). `failed`: why it could not be read.
   */
  prepend(sessionId: string, page: HTMLElement, firstSeq: number | undefined, messages: number, hasOlder: boolean, failed?: string): void {
    if (sessionId !== this.sessionId || !this.loading) return; // an answer for a chat the view left
    this.loading = false;
    if (failed !== undefined || firstSeq === undefined) {
      this.hasOlder = failed !== undefined;
      this.drawTop(failed);
      return;
    }
    const anchor = this.pages.querySelector<HTMLElement>(".history-page > *");
    const anchorTop = anchor?.getBoundingClientRect().top ?? 0;
    this.pages.prepend(page);
    this.kept.unshift({ node: page, firstSeq, messages });
    this.hasOlder = hasOlder;
    this.letNewestGo();
    this.drawTop();
    if (anchor) this.scroller.scrollTop += anchor.getBoundingClientRect().top - anchorTop;
  }

  /** Past the bound, the newest pages leave the DOM; the bar where they were brings them back. */
  private letNewestGo(): void {
    let dropped = false;
    while (this.kept.length > 1 && this.keptMessages > MAX_KEPT_MESSAGES) {
      this.kept.pop()?.node.remove();
      dropped = true;
    }
    if (!dropped) return;
    this.bottom.hidden = false;
    this.bottom.replaceChildren(
      el("span", undefined, "Newer messages are put away while you read older ones, to keep the chat light. "),
      button("Back to the latest", () => this.deps.requestLatest(), { testId: "history-latest", secondary: true }),
    );
  }

  private drawTop(failed?: string): void {
    this.top.hidden = !this.hasOlder;
    if (!this.hasOlder) {
      this.top.replaceChildren();
      return;
    }
    if (this.loading) {
      this.top.replaceChildren(el("span", undefined, "Loading older messages…"));
      return;
    }
    const label = failed === undefined ? "Load older messages" : "Try again";
    this.top.replaceChildren(
      ...(failed === undefined ? [] : [el("span", undefined, `Older messages could not be loaded: ${failed}. `)]),
      button(label, () => this.loadOlder(), { testId: "history-load-older", secondary: true }),
    );
  }
}

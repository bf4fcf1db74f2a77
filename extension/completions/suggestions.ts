// Where a suggestion comes from (issue 31, item 2): the cache of earlier answers (suggestionCache.ts),
// the one computed ahead, or the model. After a suggestion is shown, the one after it is computed ahead,
// on the document as it will be once Tab accepts it, so accepting shows the next suggestion at once
// (llama.vscode does the same). A keystroke that needs the model cancels an ahead request for another
// window first: the kernel serves one completion at a time, and the person's own comes first.
// No vscode import: the provider (inlineCompletions.ts) passes the document's text and the kernel call.
import { completionWindow } from "./completionRequest.js";
import { type CompletionWindow, SuggestionCache } from "./suggestionCache.js";

/** One `completion/infill` request: the middle the model writes between the window's prefix and suffix. */
export type InfillCall = (window: CompletionWindow, signal: AbortSignal) => Promise<string>;

export interface Suggestion {
  middle: string;
  /** cache: answered before (this window, or one the typed characters follow); ahead: computed ahead. */
  from: "cache" | "ahead" | "model";
}

const keyOf = (w: CompletionWindow) => `${w.prefix.length}:${w.prefix}\u0000${w.suffix}`;

export class Suggestions {
  private readonly cache = new SuggestionCache();
  private ahead: { key: string; abort: AbortController; middle: Promise<string | null> } | null = null;

  constructor(private readonly infill: InfillCall) {}

  /** The window at `offset` of `text` and its middle if one is known without asking the model. */
  known(text: string, offset: number): { window: CompletionWindow; middle: string | null } {
    const window = completionWindow(text, offset);
    return { window, middle: this.cache.lookup(window) };
  }

  /** The middle for `window`: the cache, the request computing it ahead, or a request of its own. */
  async suggest(window: CompletionWindow, signal: AbortSignal): Promise<Suggestion> {
    const cached = this.cache.lookup(window);
    if (cached !== null) return { middle: cached, from: "cache" };
    const ahead = this.ahead;
    if (ahead && ahead.key === keyOf(window)) {
      const middle = await untilAborted(ahead.middle, signal);
      signal.throwIfAborted();
      if (middle !== null) return { middle, from: "ahead" };
    } else this.cancelAhead();
    const middle = await this.infill(window, signal);
    this.cache.store(window, middle);
    return { middle, from: "model" };
  }

  /** After `shown` was offered at `offset` of `text`: computes the suggestion that follows its acceptance. */
  computeAhead(text: string, offset: number, shown: string): void {
    const accepted = text.slice(0, offset) + shown + text.slice(offset);
    const window = completionWindow(accepted, offset + shown.length);
    const key = keyOf(window);
    // Typing into a suggestion offers its rest: the document after the accept is the same one.
    if (this.ahead?.key === key || this.cache.lookup(window) !== null) return;
    this.cancelAhead();
    const abort = new AbortController();
    const middle = this.infill(window, abort.signal).then(
      (m) => {
        this.cache.store(window, m);
        return m;
      },
      // Cancelled by a keystroke, or refused: the provider asks again itself if the window comes.
      () => null,
    );
    this.ahead = { key, abort, middle };
    void middle.finally(() => {
      if (this.ahead?.key === key && this.ahead.abort === abort) this.ahead = null;
    });
  }

  /** Settings or the model changed: earlier answers are not this model's answers any more. */
  forget(): void {
    this.cancelAhead();
    this.cache.clear();
  }

  private cancelAhead(): void {
    this.ahead?.abort.abort();
    this.ahead = null;
  }
}

/** `work`'s value, or null as soon as `signal` aborts (the work goes on; its value is cached then). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
    void work.then((v) => {
      signal.removeEventListener("abort", onAbort);
      resolve(v);
    });
  });
}

// Suggestions by the text around the cursor (issue 31, item 2: results cached by prefix). A greedy
// fill-in-the-middle answer depends only on its prefix and suffix, so one made before is the answer
// again: a person moving the cursor back, or typing the characters a suggestion showed (the rest is
// the same middle, shown at once, with no request), gets it without the model. Pure, so unit tests run it.

export interface CompletionWindow {
  prefix: string;
  suffix: string;
}

interface Entry extends CompletionWindow {
  middle: string;
}

/** Windows remembered: enough for the suggestions of the last minutes of typing, tiny in memory. */
const CAPACITY = 64;

export class SuggestionCache {
  /** Oldest first; a hit moves its entry to the end. */
  private readonly entries: Entry[] = [];

  /**
   * The middle for `window`: one made for this very window, or the rest of one made at an earlier prefix
   * of it (same suffix) that the characters typed since follow ("" when the model had nothing to add
   * here). null when none fits, or the person has typed the whole middle.
   */
  lookup(window: CompletionWindow): string | null {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.suffix !== window.suffix || !window.prefix.startsWith(e.prefix)) continue;
      const typed = window.prefix.slice(e.prefix.length);
      // Typed to the end of the middle (or past it): the model is asked what comes next.
      if (!e.middle.startsWith(typed) || (typed.length > 0 && typed.length >= e.middle.length)) continue;
      this.entries.splice(i, 1);
      this.entries.push(e);
      return e.middle.slice(typed.length);
    }
    return null;
  }

  store(window: CompletionWindow, middle: string): void {
    const at = this.entries.findIndex((e) => e.prefix === window.prefix && e.suffix === window.suffix);
    if (at >= 0) this.entries.splice(at, 1);
    this.entries.push({ prefix: window.prefix, suffix: window.suffix, middle });
    if (this.entries.length > CAPACITY) this.entries.shift();
  }

  /** Another model or other settings answer differently: nothing remembered is the answer any more. */
  clear(): void {
    this.entries.length = 0;
  }
}

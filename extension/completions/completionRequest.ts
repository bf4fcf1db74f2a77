// What one completion asks the kernel, and what of its answer is shown (issue 31). Pure: the provider
// (inlineCompletions.ts) passes the document's text and the cursor; unit tests run it without an editor.
// The window around the cursor is bounded on both sides: the prefix is where the model's KV cache is
// reused between keystrokes, so it is cut at a line start a fixed distance back, not re-cut each keystroke.

/** Characters of the document before and after the cursor sent with a completion. */
export const PREFIX_CHARS = 6_000;
export const SUFFIX_CHARS = 1_500;

export interface CompletionSettings {
  enabled: boolean;
  /** Language ids (VS Code's) that never get completions. */
  disabledLanguages: readonly string[];
  /** Lines of a suggestion shown at most: the rest is dropped, never shown cut mid-line. */
  maxLines: number;
  /** hearth.completions.model: a separate completion model the kernel loads beside the chat model; "" for the chat model. */
  model: string;
}

export function completionsWanted(settings: CompletionSettings, languageId: string): boolean {
  return settings.enabled && !settings.disabledLanguages.includes(languageId);
}

/**
 * The prefix and suffix around `offset`. The prefix starts at the first line start at or after
 * `offset - PREFIX_CHARS` rounded down to a multiple of PREFIX_CHARS / 4, so consecutive keystrokes on a
 * line send the same start (the kernel evaluates only what follows the change).
 */
export function completionWindow(text: string, offset: number): { prefix: string; suffix: string } {
  const quantum = PREFIX_CHARS / 4;
  const earliest = Math.max(0, Math.floor((offset - PREFIX_CHARS) / quantum) * quantum);
  let start = earliest;
  if (start > 0) {
    const lineStart = text.indexOf("\n", start);
    start = lineStart >= 0 && lineStart < offset ? lineStart + 1 : start;
  }
  const end = Math.min(text.length, offset + SUFFIX_CHARS);
  const suffixEnd = end < text.length ? Math.max(offset, text.lastIndexOf("\n", end)) : end;
  return { prefix: text.slice(start, offset), suffix: text.slice(offset, suffixEnd) };
}

/** The part of a model's middle that is shown: at most `maxLines` lines, without trailing blank lines; "" if nothing is left. */
export function shownSuggestion(middle: string, maxLines: number): string {
  const lines = middle.split("\n").slice(0, Math.max(1, maxLines));
  while (lines.length > 1 && lines.at(-1)!.trim() === "") lines.pop();
  const shown = lines.join("\n");
  return shown.trim() === "" ? "" : shown;
}

// What a pending change to an existing file is shown as (issue 25 item 9): the file with the
// proposal merged in, as Continue draws it. Each hunk's removed lines keep their place, followed by
// the lines proposed in their stead, each a line of its own (drawn red and green, whole lines), so a
// multi-line edit reads as a diff rather than the new text appended to the old line. Editor
// decorations cannot add lines to a document, so this is a read-only document of its own; the file
// itself is never changed before the kernel writes it. Pure (no `vscode`), so it is unit-tested.
import { splitLines, type Hunk } from "./hunks.js";

export interface ProposalView {
  /** The view's text: lines joined with "\n" (it is shown, never written). */
  readonly text: string;
  /** 0-based view lines the proposal removes (the file's own text). */
  readonly removed: readonly number[];
  /** 0-based view lines the proposal adds. */
  readonly added: readonly number[];
  /** The view line each hunk starts on (its "Reject this hunk" lens; next / previous hunk). */
  readonly hunkStarts: readonly number[];
}

/** The file `current` with `hunks` (proposalHunks(current, …)) merged in. */
export function proposalView(current: string, hunks: readonly Hunk[]): ProposalView {
  const file = splitLines(current).map((l) => l.replace(/\r?\n$/, ""));
  const lines: string[] = [];
  const removed: number[] = [];
  const added: number[] = [];
  const hunkStarts: number[] = [];
  let at = 0;
  for (const hunk of hunks) {
    lines.push(...file.slice(at, hunk.start));
    hunkStarts.push(lines.length);
    for (const line of hunk.removed) removed.push(lines.push(line) - 1);
    for (const line of hunk.added) added.push(lines.push(line) - 1);
    at = hunk.start + hunk.removed.length;
  }
  lines.push(...file.slice(at));
  return { text: lines.length ? `${lines.join("\n")}\n` : "", removed, added, hunkStarts };
}

// The hunks of a proposed file change, as the editor shows them: which lines of the file as it is
// are replaced by which proposed lines. Pure (no `vscode`), so the mapping is unit-tested.
// Lines are compared with their terminators, so a CRLF→LF change or a missing final newline is a
// hunk too (the kernel installs bytes; the person must see every line whose bytes change).
import { diffArrays } from "diff";

export interface Hunk {
  /** 0-based line of the current file where the hunk starts (for an insertion: the line it goes before). */
  readonly start: number;
  /** The current lines the proposal removes, without their terminators. */
  readonly removed: readonly string[];
  /** The proposed lines that take their place, without their terminators. */
  readonly added: readonly string[];
}

/** Splits text into lines that keep their terminators (`\n` or `\r\n`); "" has no lines. */
export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

const withoutTerminator = (line: string): string => line.replace(/\r?\n$/, "");

/** The hunks that turn `current` (null: the file does not exist) into `proposed`, in file order. */
export function proposalHunks(current: string | null, proposed: string): Hunk[] {
  const changes = diffArrays(splitLines(current ?? ""), splitLines(proposed));
  const hunks: Hunk[] = [];
  let line = 0;
  let open: { start: number; removed: string[]; added: string[] } | undefined;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      if (open) hunks.push(open);
      open = undefined;
      line += change.value.length;
      continue;
    }
    open ??= { start: line, removed: [], added: [] };
    if (change.removed) {
      open.removed.push(...change.value.map(withoutTerminator));
      line += change.value.length;
    } else {
      open.added.push(...change.value.map(withoutTerminator));
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** Where a hunk is, in words a person and a model read the same way: "a.txt lines 3-4". 1-based. */
export function hunkPlace(file: string, hunk: Hunk): string {
  const first = hunk.start + 1;
  if (hunk.removed.length === 0) return hunk.start === 0 ? `${file} at the start` : `${file} after line ${hunk.start}`;
  const last = hunk.start + hunk.removed.length;
  return first === last ? `${file} line ${first}` : `${file} lines ${first}-${last}`;
}

/** "-2 +3": the size of a hunk. */
export function hunkSize(hunk: Hunk): string {
  return `-${hunk.removed.length} +${hunk.added.length}`;
}

/**
 * The line the next (`step` 1) or previous (-1) hunk starts on (`starts`, in order), from the
 * cursor's `line`, wrapping around at either end as VS Code's "next change" does; undefined when
 * there is no hunk.
 */
export function hunkLineFrom(hunkStarts: readonly number[], line: number, step: 1 | -1, lineCount: number): number | undefined {
  const starts = hunkStarts.map((s) => Math.min(s, Math.max(lineCount - 1, 0)));
  if (starts.length === 0) return undefined;
  if (step === 1) return starts.find((s) => s > line) ?? starts[0];
  return [...starts].reverse().find((s) => s < line) ?? starts[starts.length - 1];
}

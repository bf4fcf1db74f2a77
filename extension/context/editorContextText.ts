// The editor's context as the text a chip sends (issue 29 item 3): the Problems list, the active
// terminal's last command with its output, and the working tree's diff. Each exists only in the
// editor, so the extension writes it here, bounded in count and characters, and the kernel journals
// it exactly as sent. Pure (no vscode) so the bounds and the format are tested without a workbench.
import { stripVTControlCharacters } from "node:util";
import { singleLine } from "../../shared/boundedText.js";
import { MAX_CONTENT_CHARS } from "../../shared/protocol/attachments.js";

/** Problems listed at most; the rest are counted. Errors come first, so a cut drops hints before errors. */
export const MAX_PROBLEMS = 200;
/** One problem's message at most (a compiler's long explanation is cut, not the list). */
export const MAX_PROBLEM_MESSAGE_CHARS = 400;
/** An attachment's text at most, with room under the protocol's bound for the note that says what was cut. */
export const MAX_TEXT_CHARS = MAX_CONTENT_CHARS - 200;

export type Severity = "error" | "warning" | "info" | "hint";
const SEVERITY_ORDER: readonly Severity[] = ["error", "warning", "info", "hint"];

export interface Problem {
  /** Relative to the workspace folder (or the file's full path when it is outside it). */
  file: string;
  /** 1-based, as a person reads them in the Problems view. */
  line: number;
  column: number;
  severity: Severity;
  message: string;
  /** The diagnostic's source and code, e.g. `ts` and `2322`. */
  source?: string;
  code?: string;
}

/** `3 problems in the workspace (1 error, 2 warnings)`, then one line per problem: `a.ts:3:7 error ts(2322): …`. */
export function problemsText(where: string, problems: readonly Problem[]): string {
  if (problems.length === 0) return `No problems in ${where}: the language servers report none now.\n`;
  const sorted = [...problems].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column,
  );
  const counts = SEVERITY_ORDER.map((s) => [s, problems.filter((p) => p.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${n === 1 ? s : `${s}s`}`);
  const header = `${problems.length} ${problems.length === 1 ? "problem" : "problems"} in ${where} (${counts.join(", ")})`;
  const lines = sorted.slice(0, MAX_PROBLEMS).map(problemLine);
  const { kept } = fitLines([header, ...lines], MAX_TEXT_CHARS);
  const shown = kept.length - 1;
  const note = shown < problems.length ? [`[${problems.length - shown} more not shown: the first ${shown} by severity are listed]`] : [];
  return [...kept, ...note].join("\n") + "\n";
}

/** The output a terminal's command wrote, as text: no colour or cursor sequences, no carriage returns. */
export function plainTerminalOutput(raw: string): string {
  return stripVTControlCharacters(raw).replace(/\r+\n/g, "\n").replace(/\r/g, "");
}

/** `$ npm test`, where and how it ended, then its output's last characters (the end is what a person reads first). */
export function terminalText(run: { command: string; cwd?: string; exitCode?: number; output: string }): string {
  const ended = run.exitCode === undefined ? "exit code unknown" : `exit code ${run.exitCode}`;
  const header = `$ ${singleLine(run.command, 2000, "(command not known)")}\n(${ended}${run.cwd ? `, in ${run.cwd}` : ""})`;
  const output = plainTerminalOutput(run.output);
  const room = MAX_TEXT_CHARS - header.length - 100;
  if (output.length <= room) return `${header}\n${output}${output.endsWith("\n") || output === "" ? "" : "\n"}`;
  const tail = output.slice(output.length - room);
  const fromLine = tail.indexOf("\n") + 1;
  const kept = tail.slice(fromLine);
  return `${header}\n[the first ${output.length - kept.length} characters of the output are not shown]\n${kept}${kept.endsWith("\n") ? "" : "\n"}`;
}

/** `a.ts:3:7 error ts(2322): Type 'string' is not assignable to type 'number'.`, as the Problems view reads. */
export function problemLine(p: Problem): string {
  const origin = p.source ? ` ${p.source}${p.code ? `(${p.code})` : ""}` : p.code ? ` (${p.code})` : "";
  return `${p.file}:${p.line}:${p.column} ${p.severity}${origin}: ${singleLine(p.message, MAX_PROBLEM_MESSAGE_CHARS, "(no message)")}`;
}

/** The staged and unstaged diffs and the untracked files, cut at a line when over the bound. */
export function changesText(repo: string, diffs: { staged: string; unstaged: string; untracked: readonly string[] }): string {
  const sections = [
    ...(diffs.staged.trim() ? [`Staged (git diff --cached):`, diffs.staged.trimEnd()] : []),
    ...(diffs.unstaged.trim() ? [`Not staged (git diff):`, diffs.unstaged.trimEnd()] : []),
    ...(diffs.untracked.length ? [`Untracked files:`, ...diffs.untracked.map((f) => `  ${f}`)] : []),
  ];
  const lines = [`Changes in the working tree of ${repo}:`, ...sections.flatMap((s) => s.split("\n"))];
  const { kept, cut } = fitLines(lines, MAX_TEXT_CHARS);
  const note = cut > 0 ? [`[${cut} more lines not shown: the diff is cut at ${MAX_TEXT_CHARS} characters; attach files for the rest]`] : [];
  return [...kept, ...note].join("\n") + "\n";
}

/** The first lines whose text (joined by newlines) fits in `max` characters, and how many were left out. */
function fitLines(lines: readonly string[], max: number): { kept: string[]; cut: number } {
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > max) break;
    kept.push(line);
    size += line.length + 1;
  }
  return { kept, cut: lines.length - kept.length };
}

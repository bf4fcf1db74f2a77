// Errors after an edit (issue 29 item 4), the pure part: which of a file's problems a write added,
// and the words appended to the write's result. A problem is the same one when its severity, source,
// code and message are: the edit moves lines, so its position is not compared. Only errors and
// warnings count; hints and infos are the language servers' suggestions, not what an edit broke.
import { MAX_DIAGNOSTICS_REPORT_CHARS } from "../../shared/protocol/methods.js";
import { type Problem, problemLine } from "./editorContextText.js";

/** New problems listed at most; the rest are counted. */
export const MAX_NEW_PROBLEMS = 20;

/** The errors and warnings of `after` that `before` did not have (as many times as they are new). */
export function addedProblems(before: readonly Problem[], after: readonly Problem[]): Problem[] {
  const left = new Map<string, number>();
  for (const p of before) left.set(identity(p), (left.get(identity(p)) ?? 0) + 1);
  return after.filter((p) => {
    if (p.severity !== "error" && p.severity !== "warning") return false;
    const n = left.get(identity(p)) ?? 0;
    if (n === 0) return true;
    left.set(identity(p), n - 1);
    return false;
  });
}

/** What the model reads when the editor never reloaded the file after the write (its file watcher did not say). */
export function staleDocumentText(file: string): string {
  return `No problems were collected after this write: the editor still holds ${file} as it was before it, so its language servers have not checked the new content.`;
}

/**
 * What the model reads after the write's own result. `settled` is false when the language servers
 * said nothing about the file in the time waited: then "none" is what was known, not a verdict.
 */
export function problemsAfterWriteText(file: string, added: readonly Problem[], settled: boolean, waitedMs: number): string {
  if (added.length === 0)
    return settled
      ? `The editor reports no new errors or warnings in ${file} after this write.`
      : `The editor reported no new errors or warnings in ${file} within ${(waitedMs / 1000).toFixed(0)} s of this write (its language servers may still be checking it).`;
  const errors = added.filter((p) => p.severity === "error").length;
  const counts = [
    errors && `${errors} ${errors === 1 ? "error" : "errors"}`,
    added.length - errors && `${added.length - errors} ${added.length - errors === 1 ? "warning" : "warnings"}`,
  ]
    .filter(Boolean)
    .join(", ");
  const header = `This write left ${counts} in ${file} that ${added.length === 1 ? "was" : "were"} not there before (from the editor's language servers):`;
  const lines = [header];
  let size = header.length;
  for (const p of [...added].sort((a, b) => a.line - b.line || a.column - b.column).slice(0, MAX_NEW_PROBLEMS)) {
    const line = problemLine(p);
    if (size + line.length + 200 > MAX_DIAGNOSTICS_REPORT_CHARS) break;
    lines.push(line);
    size += line.length + 1;
  }
  const shown = lines.length - 1;
  if (shown < added.length) lines.push(`[${added.length - shown} more not shown]`);
  return lines.join("\n");
}

function identity(p: Problem): string {
  return JSON.stringify([p.severity, p.source ?? "", p.code ?? "", p.message]);
}

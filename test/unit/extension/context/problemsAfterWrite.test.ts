// Errors after an edit (issue 29 item 4), the pure part: a write's new problems are the errors and
// warnings the file did not have before, the same one being the same severity, source, code and
// message wherever the edit moved it; the report names them by line and fits the protocol's bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_DIAGNOSTICS_REPORT_CHARS } from "../../../../shared/protocol/methods.js";
import type { Problem } from "../../../../extension/context/editorContextText.js";
import { addedProblems, MAX_NEW_PROBLEMS, problemsAfterWriteText } from "../../../../extension/context/problemsAfterWrite.js";

const tsError = (line: number, message = "Type 'string' is not assignable to type 'number'."): Problem => ({
  file: "a.ts",
  line,
  column: 14,
  severity: "error",
  message,
  source: "ts",
  code: "2322",
});

describe("the problems a write added", () => {
  it("an error that was there before, moved by the edit, is not new; a second one like it is", () => {
    assert.deepEqual(addedProblems([tsError(1)], [tsError(3)]), [], "moved, not new");
    assert.deepEqual(addedProblems([tsError(1)], [tsError(3), tsError(7)]), [tsError(7)], "counted as often as it is new");
  });

  it("hints and infos are never new problems; a warning is", () => {
    const hint: Problem = { ...tsError(2), severity: "hint", message: "'x' is declared but never read." };
    const warning: Problem = { ...tsError(4), severity: "warning", message: "deprecated" };
    assert.deepEqual(addedProblems([], [hint, { ...hint, severity: "info" }, warning]), [warning]);
  });
});

describe("the report appended to the write's result", () => {
  it("names the count, then each new problem by line as the Problems view reads", () => {
    const text = problemsAfterWriteText("a.ts", [tsError(5, "later"), tsError(2)], true, 4000);
    assert.equal(
      text,
      "This write left 2 errors in a.ts that were not there before (from the editor's language servers):\n" +
        "a.ts:2:14 error ts(2322): Type 'string' is not assignable to type 'number'.\n" +
        "a.ts:5:14 error ts(2322): later",
    );
  });

  it("none new says so, and says when the language servers had not spoken within the wait", () => {
    assert.equal(problemsAfterWriteText("a.ts", [], true, 4000), "The editor reports no new errors or warnings in a.ts after this write.");
    assert.match(
      problemsAfterWriteText("a.ts", [], false, 4000),
      /within 4 s of this write \(its language servers may still be checking it\)\.$/,
    );
  });

  it("many new problems are cut to the first ones by line, counted, and fit the protocol's bound", () => {
    const many = Array.from({ length: 500 }, (_, i) => tsError(i + 1, "m".repeat(390)));
    const text = problemsAfterWriteText("a.ts", many, true, 4000);
    assert.ok(text.length <= MAX_DIAGNOSTICS_REPORT_CHARS, `${text.length}`);
    const listed = text.split("\n").filter((l) => l.startsWith("a.ts:"));
    assert.ok(listed.length > 0 && listed.length <= MAX_NEW_PROBLEMS);
    assert.equal(listed[0]!.slice(0, 9), "a.ts:1:14");
    assert.match(text, new RegExp(`\\[${500 - listed.length} more not shown\\]$`));
  });
});

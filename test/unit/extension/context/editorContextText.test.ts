// The editor's context as a chip sends it (issue 29 item 3): problems sorted by severity with
// file:line:col, severity, source and message, bounded in count and characters; a terminal's command
// with the end of its output, colour codes gone; a diff cut at a line. Each fits the protocol's bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Attachment, MAX_CONTENT_CHARS } from "../../../../shared/protocol/attachments.js";
import { changesText, MAX_PROBLEMS, type Problem, problemsText, terminalText } from "../../../../extension/context/editorContextText.js";

const fits = (kind: "problems" | "terminal" | "changes", content: string) =>
  Attachment.safeParse({ kind, path: "x", content }).success && content.length <= MAX_CONTENT_CHARS;

describe("@problems text", () => {
  it("lists errors first, each as file:line:col severity source(code): message, after a count by severity", () => {
    const problems: Problem[] = [
      { file: "src/b.ts", line: 9, column: 1, severity: "warning", message: "unused 'x'", source: "eslint", code: "no-unused-vars" },
      {
        file: "src/a.ts",
        line: 3,
        column: 7,
        severity: "error",
        message: "Type 'string' is not\n  assignable to 'number'.",
        source: "ts",
        code: "2322",
      },
      { file: "src/a.ts", line: 1, column: 1, severity: "hint", message: "could be const" },
    ];
    assert.equal(
      problemsText("the workspace", problems),
      [
        "3 problems in the workspace (1 error, 1 warning, 1 hint)",
        "src/a.ts:3:7 error ts(2322): Type 'string' is not assignable to 'number'.",
        "src/b.ts:9:1 warning eslint(no-unused-vars): unused 'x'",
        "src/a.ts:1:1 hint: could be const",
        "",
      ].join("\n"),
    );
    assert.equal(problemsText("a.ts", []), "No problems in a.ts: the language servers report none now.\n");
  });

  it("keeps at most MAX_PROBLEMS, the errors, and says how many more there are", () => {
    const many: Problem[] = Array.from({ length: MAX_PROBLEMS + 50 }, (_, i) => ({
      file: `f${String(i).padStart(3, "0")}.ts`,
      line: 1,
      column: 1,
      severity: i < 10 ? "error" : "warning",
      message: "m".repeat(2000),
    }));
    const text = problemsText("the workspace", many);
    assert.ok(fits("problems", text), `${text.length} characters fit the protocol`);
    const listed = text.split("\n").filter((l) => /^f\d+\.ts:/.test(l));
    assert.ok(listed.length <= MAX_PROBLEMS && listed.length > 0);
    assert.ok(
      listed.slice(0, 10).every((l) => l.includes(" error:")),
      "the errors are kept first",
    );
    assert.match(
      text,
      new RegExp(`\\[${many.length - listed.length} more not shown: the first ${listed.length} by severity are listed\\]\\n$`),
    );
  });
});

describe("@terminal text", () => {
  it("shows the command, its exit code and folder, and its output without colour codes or carriage returns", () => {
    const output = "\u001b[31mFAIL\u001b[0m a.test.ts\r\n\u001b]633;D;1\u0007progress 50%\rprogress 100%\r\n";
    assert.equal(
      terminalText({ command: "npm test", cwd: "/ws", exitCode: 1, output }),
      "$ npm test\n(exit code 1, in /ws)\nFAIL a.test.ts\nprogress 50%progress 100%\n",
    );
  });

  it("keeps the end of a long output, from a whole line, and says how much was left out", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const text = terminalText({ command: "cat big", output: lines.join("\n") + "\n" });
    assert.ok(fits("terminal", text));
    assert.ok(text.endsWith("line 19999\n"), "the last line is there");
    const kept = text.split("\n")[3]!;
    assert.match(kept, /^line \d+$/, "the kept output starts at a whole line");
    assert.match(text, /\n\[the first \d+ characters of the output are not shown\]\n/);
    assert.match(text, /^\$ cat big\n\(exit code unknown\)\n/);
  });
});

describe("@changes text", () => {
  it("puts the staged diff, the unstaged diff and the untracked files under their names", () => {
    assert.equal(
      changesText(".", { staged: "diff --git a/a b/a\n+1\n", unstaged: "", untracked: ["new.ts"] }),
      "Changes in the working tree of .:\nStaged (git diff --cached):\ndiff --git a/a b/a\n+1\nUntracked files:\n  new.ts\n",
    );
  });

  it("cuts a diff over the bound at a line and says how many lines were left out", () => {
    const unstaged = Array.from({ length: 10_000 }, (_, i) => `+added line ${i}`).join("\n");
    const text = changesText(".", { staged: "", unstaged, untracked: [] });
    assert.ok(fits("changes", text));
    const note = /\n\[(\d+) more lines not shown: the diff is cut at \d+ characters; attach files for the rest\]\n$/.exec(text);
    assert.ok(note, text.slice(-200));
    const shown = text.split("\n").filter((l) => l.startsWith("+added line")).length;
    assert.equal(shown + Number(note[1]), 10_000, "every line is either shown or counted");
  });
});

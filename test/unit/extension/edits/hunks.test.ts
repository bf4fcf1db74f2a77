// The hunk mapping behind the in-file edit proposal (issue 14): every line whose bytes the kernel
// would change is in exactly one hunk, at the line of the current file where it is drawn, and the
// hunks rebuild the proposal exactly (what the person sees is what Accept installs).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { hunkLineFrom, hunkPlace, proposalHunks, splitLines, type Hunk } from "../../../../extension/edits/hunks.js";

/** Applies hunks to the current text's lines (terminators aside). */
function rebuild(current: string, hunks: Hunk[]): string[] {
  const lines = splitLines(current).map((l) => l.replace(/\r?\n$/, ""));
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    out.push(...lines.slice(at, h.start));
    assert.deepEqual(
      lines.slice(h.start, h.start + h.removed.length),
      h.removed,
      "a hunk's removed lines are the file's lines at its start",
    );
    out.push(...h.added);
    at = h.start + h.removed.length;
  }
  out.push(...lines.slice(at));
  return out;
}

describe("proposal hunks (issue 14: the in-file view of an edit proposal)", () => {
  it("an insert-only change is one hunk with no removed lines, placed before the line it precedes", () => {
    const hunks = proposalHunks("a\nb\nc\n", "a\nb\nnew1\nnew2\nc\n");
    assert.deepEqual(hunks, [{ start: 2, removed: [], added: ["new1", "new2"] }]);
    assert.equal(hunkPlace("f.ts", hunks[0]!), "f.ts after line 2");
    assert.equal(hunkPlace("f.ts", proposalHunks("a\n", "top\na\n")[0]!), "f.ts at the start");
  });

  it("a delete-only change is one hunk with no added lines, naming the deleted lines", () => {
    const hunks = proposalHunks("a\nb\nc\nd\n", "a\nd\n");
    assert.deepEqual(hunks, [{ start: 1, removed: ["b", "c"], added: [] }]);
    assert.equal(hunkPlace("f.ts", hunks[0]!), "f.ts lines 2-3");
  });

  it("changes separated by an unchanged line are two hunks; touching changes are one", () => {
    assert.deepEqual(proposalHunks("a\nb\nc\n", "A\nb\nC\n"), [
      { start: 0, removed: ["a"], added: ["A"] },
      { start: 2, removed: ["c"], added: ["C"] },
    ]);
    assert.deepEqual(proposalHunks("a\nb\nc\n", "A\nB\nc\n"), [{ start: 0, removed: ["a", "b"], added: ["A", "B"] }]);
    assert.equal(hunkPlace("f.ts", proposalHunks("a\nb\nc\n", "a\nB\nc\n")[0]!), "f.ts line 2");
  });

  it("CRLF files map line for line; a change of line endings alone is a hunk (its bytes change)", () => {
    assert.deepEqual(proposalHunks("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"), [{ start: 1, removed: ["b"], added: ["B"] }]);
    assert.deepEqual(proposalHunks("a\r\nb\r\n", "a\nb\r\n"), [{ start: 0, removed: ["a"], added: ["a"] }]);
  });

  it("a file without a final newline: appending after its last line replaces that line (its terminator changes)", () => {
    assert.deepEqual(proposalHunks("a\nb", "a\nb\nc"), [{ start: 1, removed: ["b"], added: ["b", "c"] }]);
    assert.deepEqual(proposalHunks("a\nb\n", "a\nb"), [{ start: 1, removed: ["b"], added: ["b"] }]);
    assert.deepEqual(proposalHunks("a\nb", "a\nb"), [], "no change, no hunk");
  });

  it("a new file is one hunk of added lines at the start", () => {
    assert.deepEqual(proposalHunks(null, "x\ny\n"), [{ start: 0, removed: [], added: ["x", "y"] }]);
    assert.deepEqual(proposalHunks(null, ""), []);
  });

  it("for any two texts, the hunks are in file order, do not overlap, and rebuild the proposal's lines", () => {
    const text = fc
      .array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 12 })
      .chain((lines) =>
        fc.constantFrom("\n", "\r\n").chain((eol) => fc.boolean().map((final) => lines.join(eol) + (final && lines.length ? eol : ""))),
      );
    fc.assert(
      fc.property(text, text, (current, proposed) => {
        const hunks = proposalHunks(current, proposed);
        for (let i = 1; i < hunks.length; i++) {
          const previousEnd = hunks[i - 1]!.start + hunks[i - 1]!.removed.length;
          assert.ok(hunks[i]!.start > previousEnd, "hunks are separated by at least one unchanged line");
        }
        assert.deepEqual(
          rebuild(current, hunks),
          splitLines(proposed).map((l) => l.replace(/\r?\n$/, "")),
        );
      }),
    );
  });
});

describe("next / previous hunk (issue 25 item 5: the keyboard walks a proposal's hunks)", () => {
  const hunks = [2, 7, 40];
  it("next goes to the first hunk after the cursor and wraps from the last to the first", () => {
    assert.equal(hunkLineFrom(hunks, 0, 1, 50), 2);
    assert.equal(hunkLineFrom(hunks, 2, 1, 50), 7);
    assert.equal(hunkLineFrom(hunks, 7, 1, 50), 40);
    assert.equal(hunkLineFrom(hunks, 45, 1, 50), 2);
  });
  it("previous goes to the last hunk before the cursor and wraps from the first to the last", () => {
    assert.equal(hunkLineFrom(hunks, 7, -1, 50), 2);
    assert.equal(hunkLineFrom(hunks, 8, -1, 50), 7);
    assert.equal(hunkLineFrom(hunks, 1, -1, 50), 40);
  });
  it("a hunk past the end (an insertion after the last line) lands on the last line; no hunks, no line", () => {
    assert.equal(hunkLineFrom(hunks, 7, 1, 10), 9);
    assert.equal(hunkLineFrom([], 3, 1, 10), undefined);
  });
});

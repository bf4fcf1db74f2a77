// extension/edits/proposalView.ts: a pending change drawn as the file with the proposal merged in,
// every proposed line a line of its own (issue 25 item 9), never appended to the line it replaces.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { proposalHunks } from "../../../../extension/edits/hunks.js";
import { proposalView } from "../../../../extension/edits/proposalView.js";

const view = (current: string, proposed: string) => proposalView(current, proposalHunks(current, proposed));

describe("the proposal view: removed and added lines, each on its own line", () => {
  it("a replaced line is followed by its replacement; an appended line comes after the last", () => {
    const v = view("one\ntwo\nthree\nfour\nfive\n", "one\nTWO\nthree\nfour\nFIVE\nsix\n");
    assert.equal(v.text, "one\ntwo\nTWO\nthree\nfour\nfive\nFIVE\nsix\n");
    assert.deepEqual(v.removed, [1, 5]);
    assert.deepEqual(v.added, [2, 6, 7]);
    assert.deepEqual(v.hunkStarts, [1, 5]);
  });

  it("a multi-line replacement keeps the removed block together, then the added block", () => {
    const v = view("a\nb\nc\nd\n", "a\nB1\nB2\nB3\nd\n");
    assert.equal(v.text, "a\nb\nc\nB1\nB2\nB3\nd\n");
    assert.deepEqual([v.removed, v.added, v.hunkStarts], [[1, 2], [3, 4, 5], [1]]);
  });

  it("an insertion at the start and a deletion at the end; CRLF lines are shown without their terminators", () => {
    const v = view("x\r\ny\r\nz\r\n", "new\r\nx\r\ny\r\n");
    assert.equal(v.text, "new\nx\ny\nz\n");
    assert.deepEqual([v.removed, v.added, v.hunkStarts], [[3], [0], [0, 3]]);
  });

  it("for any two texts, the view without its added lines is the file, and without its removed lines the proposal", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 12 }).map((lines) => lines.map((l) => `${l}\n`).join(""));
    fc.assert(
      fc.property(text, text, (current, proposed) => {
        const v = view(current, proposed);
        const lines = v.text === "" ? [] : v.text.slice(0, -1).split("\n");
        const keep = (drop: readonly number[]) =>
          lines
            .filter((_, i) => !drop.includes(i))
            .map((l) => `${l}\n`)
            .join("");
        assert.equal(keep(v.added), current);
        assert.equal(keep(v.removed), proposed);
        assert.ok(
          v.hunkStarts.every((s, i) => i === 0 || s > v.hunkStarts[i - 1]!),
          "hunks in order",
        );
      }),
    );
  });
});

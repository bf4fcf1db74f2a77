// Issue 25 item 9: the next proposal never places an actionable lens under the pointer that just
// decided the last one. The rows are laid out as the editor draws code lenses: titles in order on
// their line, joined by " | ", each as wide as its characters (the lens font is one proportional font,
// so a margin of a few characters stands for the difference between letters).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  LensPlacement,
  leadLabel,
  proposalLenses,
  type LensedProposal,
  type LensSpec,
} from "../../../../extension/edits/proposalLenses.js";

const SEPARATOR = " | ".length;
/** Characters of room kept between what was clicked and the next actionable lens. */
const MARGIN = 3;

interface Placed extends LensSpec {
  from: number;
  to: number;
}

/** Each lens with its horizontal extent, in characters, on its row. */
function layout(lenses: readonly LensSpec[]): Placed[] {
  const ends = new Map<number, number>();
  return lenses.map((lens) => {
    const from = ends.has(lens.line) ? ends.get(lens.line)! + SEPARATOR : 0;
    ends.set(lens.line, from + lens.title.length);
    return { ...lens, from, to: from + lens.title.length };
  });
}

const shapes: Omit<LensedProposal, "led" | "inDiff">[] = [
  { file: "a", isNew: false, hunkCount: 1, hunkStarts: [0], lineCount: 3 },
  { file: "README.md", isNew: false, hunkCount: 2, hunkStarts: [0, 4], lineCount: 9 },
  { file: "src/parse.ts", isNew: false, hunkCount: 12, hunkStarts: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24], lineCount: 30 },
  { file: "b.ts", isNew: false, hunkCount: 999, hunkStarts: [1, 3], lineCount: 5 },
  { file: "c", isNew: true, hunkCount: 1, hunkStarts: undefined, lineCount: 2 },
];

describe("where a proposal's lenses stand (issue 25 item 9)", () => {
  it("the next proposal never places an actionable lens under the pointer that just decided the last one, click after click", () => {
    for (const first of shapes)
      for (const second of shapes)
        for (const third of shapes) {
          const placement = new LensPlacement();
          let shown = { ...first, inDiff: false, led: placement.forNew() };
          for (const next of [second, third]) {
            for (const clicked of layout(proposalLenses(shown)).filter((l) => l.action && l.action !== "showDiff")) {
              const led = new LensPlacement().clicked(shown.led);
              const under = layout(proposalLenses({ ...next, inDiff: false, led })).filter(
                (l) => l.action && l.line === clicked.line && l.from < clicked.to + MARGIN && clicked.from < l.to + MARGIN,
              );
              assert.deepEqual(
                under.map((l) => l.title),
                [],
                `${clicked.title} of ${shown.file} (led: ${shown.led}) was clicked; ${next.file} (led: ${led}) stands there`,
              );
            }
            shown = { ...next, inDiff: false, led: placement.clicked(shown.led) };
          }
        }
  });

  it("a led row begins with the inert label on each line that has lenses; a row that is not led begins with Accept", () => {
    const p = { file: "README.md", isNew: false, hunkCount: 2, hunkStarts: [0, 4], lineCount: 9, inDiff: false };
    assert.deepEqual(
      proposalLenses({ ...p, led: true }).map((l) => [l.line, l.title, l.action ?? "none"]),
      [
        [0, leadLabel("README.md"), "none"],
        [0, "Accept (2 hunks)", "accept"],
        [0, "Reject", "reject"],
        [0, "Show diff", "showDiff"],
        [0, "Reject this hunk", "rejectHunk"],
        [4, leadLabel("README.md"), "none"],
        [4, "Reject this hunk", "rejectHunk"],
      ],
    );
    assert.equal(proposalLenses({ ...p, led: false })[0]?.title, "Accept (2 hunks)");
  });

  it("clicks alternate the rows; a proposal shown before any click is not led", () => {
    const placement = new LensPlacement();
    assert.equal(placement.forNew(), false);
    assert.equal(placement.clicked(false), true);
    assert.equal(placement.forNew(), true);
    assert.equal(placement.clicked(true), false);
    assert.equal(placement.forNew(), false);
  });
});

// The lenses of a proposal, and where they stand (issue 25 item 9). After a click decides a proposal,
// the next one is often drawn in the same editor with its lens rows on the same lines: had its Accept
// stood where the last one was clicked, the second click of a double click would accept it unseen.
// So the proposals after a click alternate: one's rows begin with their lenses, the next one's with
// an inert label wider than a row's lenses, so that where the pointer just acted there is only text,
// and a decision needs the pointer to move to the lenses beside it. Pure, so it is unit-tested
// (editProposals.ts draws the lenses).

export type LensAction = "accept" | "reject" | "showDiff" | "rejectHunk";

/** One lens: a line, a title, and what it does (none: an inert label). */
export interface LensSpec {
  line: number;
  title: string;
  action?: LensAction;
  /** The hunk a "Reject this hunk" lens names. */
  hunk?: number;
  tooltip?: string;
}

export interface LensedProposal {
  file: string;
  isNew: boolean;
  hunkCount: number;
  /** Where each hunk begins in the proposal view (undefined: a new file, drawn whole). */
  hunkStarts: readonly number[] | undefined;
  lineCount: number;
  /** Drawn on Show diff's proposed side: its top lenses only. */
  inDiff: boolean;
  /** Whether its rows begin with the inert label (see LensPlacement). */
  led: boolean;
}

/**
 * The label that leads a moved row: wider than the widest row that is not led ("Accept (999 hunks) |
 * Reject | Show diff | Reject this hunk", a hunk on the first line), so neither covers the other's lenses.
 */
export function leadLabel(file: string): string {
  return `The next change Hearth proposes, in ${file}: Accept and Reject are to the right →`;
}

/** A proposal's lenses, row by row in the order they are drawn (the label first on a led row). */
export function proposalLenses(p: LensedProposal): LensSpec[] {
  const lead = (line: number): LensSpec[] => (p.led ? [{ line, title: leadLabel(p.file) }] : []);
  const n = p.hunkCount;
  const lenses: LensSpec[] = [
    ...lead(0),
    {
      line: 0,
      title: p.isNew ? "Accept (new file)" : `Accept (${n} ${n === 1 ? "hunk" : "hunks"})`,
      action: "accept",
      tooltip: `Write ${p.file} exactly as proposed`,
    },
    { line: 0, title: "Reject", action: "reject", tooltip: "Write nothing; the model is told" },
    { line: 0, title: "Show diff", action: "showDiff" },
  ];
  if (p.isNew || p.inDiff) return lenses;
  p.hunkStarts?.forEach((start, hunk) => {
    const line = Math.min(start, p.lineCount - 1);
    lenses.push(...(line === 0 ? [] : lead(line)), {
      line,
      title: "Reject this hunk",
      action: "rejectHunk",
      hunk,
      tooltip: "Write nothing; the model is told which hunk you rejected",
    });
  });
  return lenses;
}

/** Whether the rows of the proposals shown next begin with the label. */
export class LensPlacement {
  private nextLed = false;

  /** A proposal shown now: whether its rows begin with the label. */
  forNew(): boolean {
    return this.nextLed;
  }

  /**
   * A click on a lens decided a proposal: the proposals still waiting and those shown next stand where
   * its lenses did not; returns whether they are led. (A key decision changes nothing: the pointer is
   * still where it last clicked.)
   */
  clicked(decidedWasLed: boolean): boolean {
    this.nextLed = !decidedWasLed;
    return this.nextLed;
  }
}

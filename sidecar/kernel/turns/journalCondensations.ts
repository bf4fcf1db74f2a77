// The journal side of the context port (issue 13, item 3): each condensed view the harness makes is
// journaled naming the range of journal seqs it replaces, and a resumed run gets exactly the view
// its session had.
import type { Condensation, HistoryMessage } from "../../../shared/protocol/records.js";
import { NO_CONDENSATION, type CondensationRecord, type CondensationStore, type CondensedView } from "../../agent/index.js";
import type { ControlPlane } from "../control/controlPlane.js";

/** Journals a view; `base` is the history (with seqs) the harness was built from, in the same order. */
export class JournalCondensations implements CondensationStore {
  constructor(
    private readonly control: ControlPlane,
    private readonly sessionId: string,
    private readonly turnId: string | null,
    private readonly base: readonly HistoryMessage[],
  ) {}

  async save(record: CondensationRecord): Promise<void> {
    const { view } = record;
    // The harness only condenses turns before the current one: they are all in `base`.
    if (view.replacedCount > this.base.length)
      throw new Error(`a condensed view replaces ${view.replacedCount} messages of ${this.base.length} journaled`);
    this.control.recordCondensation({
      sessionId: this.sessionId,
      turnId: this.turnId,
      trigger: record.trigger,
      fromSeq: view.replacedCount > 0 ? this.base[0]!.seq : null,
      throughSeq: view.replacedCount > 0 ? this.base[view.replacedCount - 1]!.seq : null,
      summary: view.summary,
      elidedCallIds: view.elidedCallIds,
      tokensBefore: record.tokensBefore,
      tokensAfter: record.tokensAfter,
    });
  }
}

/** The view a session resumes with: its latest condensation, mapped onto the history being replayed. */
export function viewFromJournal(latest: Condensation | null, base: readonly HistoryMessage[]): CondensedView {
  if (!latest) return NO_CONDENSATION;
  const through = latest.throughSeq;
  return {
    summary: latest.summary,
    replacedCount: through === null ? 0 : base.filter((m) => m.seq <= through).length,
    elidedCallIds: latest.elidedCallIds,
  };
}

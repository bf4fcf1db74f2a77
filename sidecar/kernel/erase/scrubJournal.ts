// After an erase (issue 24, item 7): the erased rows' bytes leave the journal file and its WAL, so
// "cannot be recovered" stays true. secure_delete (journal.ts) zeroes what a DELETE frees from now
// on, but pages freed earlier (a b-tree split, an UPDATE) and older page images in the WAL may still
// hold the text: VACUUM rewrites the file from its live rows only, and a TRUNCATE checkpoint copies
// the result into the file and empties the WAL.
import type { Journal } from "../../journal/journal.js";

export function scrubJournal(journal: Journal, log: (line: string) => void): void {
  journal.db.exec("VACUUM");
  const [result] = journal.db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
  // busy: another connection (the startup checkpoint's worker) read meanwhile; the next checkpoint finishes it.
  if (result && result.busy !== 0)
    log(`erase: the WAL checkpoint was busy (${JSON.stringify(result)}); it completes at the next checkpoint`);
}

// The record of a journal's last integrity check (issue 26 item 5), kept beside the journal file:
// the kernel writes it each time it opens the journal, `hearth doctor` reads it without SQLite, and
// opening a journal writes no row of its own (a second open changes nothing).

export interface IntegrityRecord {
  /** "ok", or "damaged: " and SQLite's first findings. */
  result: string;
  /** When the check ran (ISO 8601). */
  at: string;
  /** How long integrity_check took. */
  ms: number;
}

export function journalIntegrityPath(journalPath: string): string {
  return `${journalPath}.integrity.json`;
}

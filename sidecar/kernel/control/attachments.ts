// What was attached to a run's user message (issue 15, migration v8): place, size and hash of the
// text the kernel read. Written by admission, in the transaction that appends the message, so a
// message is never journaled without its attachment rows (docs/control-plane.md: one transaction per decision).
// An editor attachment's text is in the message, not in its row: the row keeps its size and hash.
import type { Attachment } from "../../../shared/protocol/attachments.js";
import type { Db } from "../../journal/journal.js";

export interface AttachmentRecord {
  attachment: Attachment;
  bytes: number;
  sha256: string;
}

/** One row per attachment, in order, in the caller's transaction. */
export function insertAttachments(db: Db, turnId: string, records: readonly AttachmentRecord[], at: string): void {
  if (records.length === 0) return;
  const insert = db.prepare(
    `INSERT INTO message_attachments (run_id, ordinal, kind, path, start_line, end_line, server, bytes, sha256, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
  );
  records.forEach((r, i) => {
    const a = r.attachment;
    insert.run(turnId, i, a.kind, a.path, a.startLine ?? null, a.endLine ?? null, a.server ?? null, r.bytes, r.sha256, at);
  });
}

/** What was attached to a run's message, in order. */
export function attachmentsOf(db: Db, turnId: string): AttachmentRecord[] {
  const rows = db
    .prepare(`SELECT kind, path, start_line, end_line, server, bytes, sha256 FROM message_attachments WHERE run_id = ? ORDER BY ordinal`)
    .all(turnId) as {
    kind: Attachment["kind"];
    path: string;
    server: string | null;
    start_line: number | null;
    end_line: number | null;
    bytes: number;
    sha256: string;
  }[];
  return rows.map((r) => ({
    attachment: {
      kind: r.kind,
      path: r.path,
      ...(r.start_line !== null ? { startLine: r.start_line, endLine: r.end_line ?? r.start_line } : {}),
      ...(r.server !== null ? { server: r.server } : {}),
    },
    bytes: r.bytes,
    sha256: r.sha256,
  }));
}

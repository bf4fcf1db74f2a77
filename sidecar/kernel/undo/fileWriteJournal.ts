// The kernel's side of the tools' FileWriteSink (issue 14 item 5): each successful write_file/edit_file
// install is journaled with the file's pre-image (its hash always, its bytes up to PRE_IMAGE_MAX_BYTES)
// and the hash it left, under the ledger row of the dispatched call that wrote it.
import { uuidv7 } from "../../../shared/ids.js";
import type { Journal } from "../../journal/journal.js";
import type { FileWriteRecord, FileWriteSink } from "../../tools/fileWrites.js";
import { nowIso } from "../control/transition.js";
import { errorMessage } from "../../../shared/errors.js";

/** Bytes of a file's pre-image kept for undo; above it only the hash is kept and undo refuses that file. */
export const PRE_IMAGE_MAX_BYTES = 1 << 20;

export class FileWriteJournal implements FileWriteSink {
  constructor(
    private readonly journal: Journal,
    private readonly log: (line: string) => void,
  ) {}

  fileWritten(record: FileWriteRecord): void {
    try {
      this.journal.withTransaction((db) => {
        // The call is dispatched while its tool runs (the ledger commits that before the effect).
        const calls = db
          .prepare(
            `SELECT i.invocation_id, i.run_id, r.session_id FROM tool_invocations i JOIN runs r ON r.run_id = i.run_id
             WHERE i.call_id = ? AND i.status = 'dispatched'`,
          )
          .all(record.callId) as { invocation_id: string; run_id: string; session_id: string }[];
        if (calls.length !== 1) throw new Error(`${calls.length} dispatched ledger rows for call ${record.callId}, expected exactly one`);
        const call = calls[0]!;
        const b = record.before;
        const kept = b.existed && b.content.length <= PRE_IMAGE_MAX_BYTES ? b.content : null;
        db.prepare(
          `INSERT INTO file_writes (
             write_id, invocation_id, run_id, session_id, path,
             existed_before, before_sha256, before_size, before_content, after_sha256, created_at)
           VALUES (?,?,?,?,?, ?,?,?,?,?,?)`,
        ).run(
          uuidv7(),
          call.invocation_id,
          call.run_id,
          call.session_id,
          record.path,
          b.existed ? 1 : 0,
          b.existed ? b.sha256 : null,
          b.existed ? b.content.length : null,
          kept,
          record.afterSha256,
          nowIso(),
        );
      });
    } catch (e) {
      // The file is written already; failing the call now would tell the model something untrue.
      this.log(
        `undo: the pre-image of ${record.path} (call ${record.callId}) was not journaled, so this write cannot be undone: ${errorMessage(e)}`,
      );
    }
  }
}

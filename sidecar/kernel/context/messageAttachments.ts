// Context attached to a message (issue 15): the kernel reads each attached file or selection with its
// own anchored read_file (beneath the workspace descriptor, bounded; never the client's file access),
// puts the text in the user message the model reads, and journals what was attached: place, size, hash.
import { createHash } from "node:crypto";
import { composeMessage } from "../../../shared/attachmentText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { type Attachment, attachmentLabel } from "../../../shared/protocol/attachments.js";
import type { Tool } from "../../agent/ports/tools.js";
import type { Journal } from "../../journal/journal.js";
import { nowIso } from "../control/transition.js";

export interface AttachmentRecord {
  attachment: Attachment;
  bytes: number;
  sha256: string;
}

const NEVER = new AbortController().signal;

export class MessageAttachments {
  constructor(private readonly deps: { journal: Journal; readFile: Tool }) {}

  /** The message the model reads (typed text, then each attachment's text) and what to journal. */
  async compose(typed: string, attachments: readonly Attachment[]): Promise<{ message: string; records: AttachmentRecord[] }> {
    const blocks: { attachment: Attachment; text: string }[] = [];
    for (const a of attachments) blocks.push({ attachment: a, text: await this.read(a) });
    const records = blocks.map(({ attachment, text }) => ({
      attachment,
      bytes: Buffer.byteLength(text),
      sha256: createHash("sha256").update(text).digest("hex"),
    }));
    return { message: composeMessage(typed, blocks), records };
  }

  /** One row per attachment of the run's user message (the run was admitted in the same tick). */
  record(runId: string, records: readonly AttachmentRecord[]): void {
    if (records.length === 0) return;
    const at = nowIso();
    this.deps.journal.withTransaction((db) => {
      const insert = db.prepare(
        `INSERT INTO message_attachments (run_id, ordinal, kind, path, start_line, end_line, bytes, sha256, created_at) VALUES (?,?,?,?,?,?,?,?,?)`,
      );
      records.forEach((r, i) => {
        const a = r.attachment;
        insert.run(runId, i, a.kind, a.path, a.startLine ?? null, a.endLine ?? null, r.bytes, r.sha256, at);
      });
    });
  }

  /** What was attached to a run's message, in order. */
  attachedTo(runId: string): AttachmentRecord[] {
    const rows = this.deps.journal.db
      .prepare(`SELECT kind, path, start_line, end_line, bytes, sha256 FROM message_attachments WHERE run_id = ? ORDER BY ordinal`)
      .all(runId) as {
      kind: "file" | "selection";
      path: string;
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
      },
      bytes: r.bytes,
      sha256: r.sha256,
    }));
  }

  private async read(a: Attachment): Promise<string> {
    if (a.kind === "selection" && (a.startLine === undefined || a.endLine === undefined || a.endLine < a.startLine))
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the selection ${attachmentLabel(a)} needs startLine ≤ endLine; select the lines again`,
      );
    const args = { path: a.path, ...(a.kind === "selection" ? { startLine: a.startLine, endLine: a.endLine } : {}) };
    const ctx = { callId: "attachment", signal: NEVER };
    const result = await this.deps.readFile.invoke(args, await this.deps.readFile.propose(args, ctx), ctx);
    if (!result.ok)
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the attached ${attachmentLabel(a)} could not be read (${result.output}); remove its chip or fix the file, then send again`,
      );
    return result.output;
  }
}

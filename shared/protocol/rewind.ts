// Rewind of a session to one of its user messages (issue 29 item 1): what a rewind would do (its
// preview), what it did, and what undoing it did. One record for every client (the chat, `hearth rewind`).
import { z } from "zod";
import { Id } from "./records.js";

/** The conversation only, the files only, or both. */
export const RewindScope = z.enum(["conversation", "files", "both"]);
export type RewindScope = z.infer<typeof RewindScope>;

/**
 * What a rewind does (or would do) to one file the later turns wrote: put back to its bytes before
 * them, removed (they created it), unchanged (it holds those bytes already), or refused with the reason.
 */
export const RewindFileOutcome = z.object({
  path: z.string(),
  outcome: z.enum(["restored", "removed", "unchanged", "refused"]),
  message: z.string(),
});
export type RewindFileOutcome = z.infer<typeof RewindFileOutcome>;

/** What the model stops seeing: the messages from the rewind point through the session's last one then. */
export const RewoundRange = z.object({ fromSeq: z.number().int().positive(), throughSeq: z.number().int().positive() });

export const RewindPreview = z.object({
  sessionId: Id,
  /** The user message rewound to: it and everything after it. */
  toSeq: z.number().int().positive(),
  conversation: RewoundRange.extend({ messages: z.number().int().nonnegative(), turns: z.number().int().nonnegative() }),
  /** Every file the turns from toSeq on wrote with write_file or edit_file, as a rewind of the files would leave it. */
  files: z.array(RewindFileOutcome),
});
export type RewindPreview = z.infer<typeof RewindPreview>;

/** A rewind as the journal keeps it; `undoneAt` once a person undid it. */
export const RewindRecord = z.object({
  rewindId: Id,
  scope: RewindScope,
  fromSeq: z.number().int().positive(),
  throughSeq: z.number().int().positive(),
  createdAt: z.string(),
  undoneAt: z.string().nullable(),
  files: z.array(RewindFileOutcome),
});
export type RewindRecord = z.infer<typeof RewindRecord>;

// Undo of a turn's edits (issue 14 item 5): which files each turn wrote with write_file/edit_file,
// and what an undo did to each. One record for every client (the chat's button, the command).
import { z } from "zod";
import { Id } from "./records.js";

/** A file one turn wrote: changed (it existed before the turn) or created by it. */
export const TurnEditedFile = z.object({
  /** Beneath the workspace folder, components joined by `/`. */
  path: z.string(),
  change: z.enum(["modified", "created"]),
  /** An undo already put it back (or removed it). */
  undone: z.boolean(),
  /** Why undo cannot put it back whatever happens (its bytes before the turn were over the kept bound); null otherwise. */
  notUndoable: z.string().nullable(),
});
export type TurnEditedFile = z.infer<typeof TurnEditedFile>;

export const TurnEdits = z.object({
  turnId: Id,
  /** The write calls, in order: a view places the turn's Undo beside the last one it shows. */
  callIds: z.array(Id),
  files: z.array(TurnEditedFile),
});
export type TurnEdits = z.infer<typeof TurnEdits>;

/** What one undo did to one file; a refusal says what, why and what to do. */
export const UndoFileOutcome = z.object({
  path: z.string(),
  outcome: z.enum(["restored", "removed", "refused"]),
  message: z.string(),
});
export type UndoFileOutcome = z.infer<typeof UndoFileOutcome>;

// The chat's "Undo these edits" (issue 14 item 5): the extension tells the view which turns of the
// session wrote files, the view asks for an undo only after the person confirmed it in place.
import { z } from "zod";
import { Id } from "./records.js";
import { TurnEdits, UndoFileOutcome } from "./undo.js";

export const UndoToWebview = [
  // The current session's turns that wrote files (turn/edits), oldest first.
  z.object({ type: z.literal("edits/turns"), sessionId: Id, turns: z.array(TurnEdits) }),
  // What an undo did to each file, or why it did not run at all.
  z.object({ type: z.literal("edits/result"), turnId: Id, files: z.array(UndoFileOutcome), error: z.string().optional() }),
] as const;

export const UndoFromWebview = [
  // The transcript changed (a session shown, a turn ended): send edits/turns again.
  z.object({ type: z.literal("edits/refresh") }),
  // The person pressed "Undo these edits" and confirmed the files it names.
  z.object({ type: z.literal("edits/undo"), turnId: Id }),
] as const;

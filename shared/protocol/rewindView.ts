// The chat's rewind (issue 29 item 1) and fork (item 2): the view asks what each choice would do (a preview) before the
// person picks one, then asks for it; the extension answers with the outcome and the session's rewinds.
import { z } from "zod";
import { Id } from "./records.js";
import { RewindFileOutcome, RewindPreview, RewindRecord, RewindScope } from "./rewind.js";

const Seq = z.number().int().positive();

export const RewindToWebview = [
  // The current session's rewinds, oldest first: the view folds the messages of each not undone.
  // userSeqs: the seqs of its latest user messages, in order, so a message the view drew live (it has
  // no seq yet) gets its Rewind button when its turn ends.
  z.object({ type: z.literal("rewind/list"), sessionId: Id, rewinds: z.array(RewindRecord), userSeqs: z.array(Seq) }),
  // What rewinding to the message would do, or why it cannot.
  z.object({ type: z.literal("rewind/preview"), toSeq: Seq, preview: RewindPreview.optional(), error: z.string().optional() }),
  // What a rewind (toSeq) or the undo of one (rewindId) did to each file, or why it did not run.
  z.object({
    type: z.literal("rewind/result"),
    toSeq: Seq.optional(),
    rewindId: Id.optional(),
    files: z.array(RewindFileOutcome),
    error: z.string().optional(),
  }),
  // issue 29 item 2: the fork at the message was made and is now the chat (sent after its transcript);
  // draft is the forked message, for the message box. error: why there is no fork, or it was not opened.
  z.object({ type: z.literal("fork/result"), atSeq: Seq, draft: z.string().optional(), error: z.string().optional() }),
] as const;

export const RewindFromWebview = [
  // The transcript changed: send rewind/list again.
  z.object({ type: z.literal("rewind/refresh") }),
  // The person opened a message's Rewind menu.
  z.object({ type: z.literal("rewind/preview"), toSeq: Seq }),
  // The person picked a previewed choice.
  z.object({ type: z.literal("rewind/go"), toSeq: Seq, scope: RewindScope }),
  z.object({ type: z.literal("rewind/undo"), rewindId: Id }),
  // The person's Fork on a message: a new chat with the history before it.
  z.object({ type: z.literal("fork/go"), atSeq: Seq }),
  // The person's Fork as task: a background task with that history, doing what the message says.
  z.object({ type: z.literal("fork/task"), atSeq: Seq, text: z.string().min(1).max(1_000_000) }),
] as const;

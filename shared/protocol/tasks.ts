// Background tasks (issue 12): a leaf session in its own workstream, run by the kernel beside chats.
// One record for every client (the editor's Tasks view, `hearth tasks`), so both see the same task.
import { z } from "zod";
import { ForkOrigin, Id } from "./records.js";

/**
 * queued: waiting for a free task slot (HEARTH_MAX_TASKS). orphaned: the kernel stopped while it ran;
 * a person resumes it (a new run of its session) or dismisses it. The other states are its run's.
 */
export const TaskState = z.enum(["queued", "running", "waiting_approval", "completed", "failed", "cancelled", "orphaned"]);
export type TaskState = z.infer<typeof TaskState>;

export const TaskSummary = z.object({
  taskId: Id,
  sessionId: Id,
  /** The task's current run (a resumed task has a new one); its transcript is session/history. */
  turnId: Id.nullable(),
  /** The coordinator session that delegated it; null when a person started it. */
  parentSessionId: Id.nullable(),
  workstreamId: Id.nullable(),
  title: z.string(),
  instruction: z.string(),
  model: z.string(),
  /** The tools it may use: never wider than its parent's (or the kernel's offered tools). */
  tools: z.array(z.string()),
  state: TaskState,
  /** Why it failed, was cancelled or orphaned; null otherwise. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Started by an untrusted client (Restricted Mode): read-only tools only, for its life (issue 24). */
  readOnly: z.boolean(),
  /** The id of the artifact holding its final answer, once completed. */
  resultArtifactId: Id.nullable(),
  /** Forked from a chat at its user message (issue 29 item 2): a rerun starts from the same point. */
  forkedFrom: ForkOrigin.optional(),
});
export type TaskSummary = z.infer<typeof TaskSummary>;

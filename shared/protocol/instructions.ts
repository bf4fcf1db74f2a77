// Project instructions (issue 27, item 1): the instruction files and the person's own rules a run
// is shown, pinned in its context snapshot (control plane #10). One record for every client: the
// chat's list with token costs and switches, `hearth instructions`.
import { z } from "zod";

/** The convention a source follows; `person` is the person's own rules (hearth.instructions.personal). */
export const InstructionOrigin = z.enum(["agents", "claude", "cline", "roo", "continue", "copilot", "cursor", "person"]);
export type InstructionOrigin = z.infer<typeof InstructionOrigin>;

/** The setting that holds the person's own rules: also the key their switch is stored under. */
export const PERSONAL_INSTRUCTIONS_KEY = "hearth.instructions.personal";

export const InstructionSource = z.object({
  /** Workspace-relative (`/`-separated), or PERSONAL_INSTRUCTIONS_KEY: the key instructions/set takes. */
  path: z.string(),
  origin: InstructionOrigin,
  /** The folder it applies to: "" for the whole workspace, a nested AGENTS.md's folder otherwise. */
  scope: z.string(),
  /** Turned on (the default) or off by the person (instructions/set). */
  enabled: z.boolean(),
  /** Its whole size in bytes. */
  bytes: z.number().int().nonnegative(),
  /** The bytes of it the model is shown: 0 when off, unreadable or left out. */
  shownBytes: z.number().int().nonnegative(),
  /** Why less than all of it is shown: the per-file bound, the bound on all instructions, or none. */
  cut: z.enum(["file", "total"]).nullable(),
  /** What it costs of the context, estimated (about four bytes a token) before a model counts it. */
  tokens: z.number().int().nonnegative(),
  /** Why it is not shown: unreadable, not text, or the folder is not trusted. */
  problem: z.string().optional(),
});
export type InstructionSource = z.infer<typeof InstructionSource>;

export const InstructionsInForce = z.object({
  sources: z.array(InstructionSource),
  /** What was not looked at or left out, in words (a search bound reached). */
  notes: z.array(z.string()),
  /** The tokens all shown instructions cost, estimated the same way. */
  tokens: z.number().int().nonnegative(),
  bounds: z.object({ perFileBytes: z.number().int().positive(), totalBytes: z.number().int().positive() }),
});
export type InstructionsInForce = z.infer<typeof InstructionsInForce>;

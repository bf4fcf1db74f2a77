// The chat's list of project instructions (issue 27, item 1): which instruction files and personal
// rules the next turn is shown, what each costs, and a switch for each that applies from the next turn.
import { z } from "zod";
import { InstructionsInForce } from "./instructions.js";

export const InstructionsToWebview = [
  // What the next turn would be shown (instructions/list); `error` when the kernel could not say.
  z.object({ type: z.literal("instructions/list"), inForce: InstructionsInForce.nullable(), error: z.string().optional() }),
] as const;

export const InstructionsFromWebview = [
  // The view was shown or a turn ended: send the list again (a file may have changed).
  z.object({ type: z.literal("instructions/refresh") }),
  // The person switched one source on or off.
  z.object({ type: z.literal("instructions/set"), path: z.string().min(1).max(4096), enabled: z.boolean() }),
] as const;

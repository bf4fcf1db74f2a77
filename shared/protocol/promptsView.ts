// The chat's prompt files (issue 27, item 3): listed in the slash menu under the built-in commands,
// asked for whenever the menu opens (a file may have changed); `/name args` runs one.
import { z } from "zod";
import { Attachment, MAX_ATTACHMENTS } from "./attachments.js";
import { PromptList } from "./prompts.js";

export const PromptsToWebview = [
  // The prompt files there are now (prompts/list); `error` when the kernel could not say.
  z.object({ type: z.literal("prompts/list"), list: PromptList.nullable(), error: z.string().optional() }),
] as const;

export const PromptsFromWebview = [
  // The slash menu opened, the view loaded or the folder's trust changed: send the list again.
  z.object({ type: z.literal("prompts/refresh") }),
  // `/name args` typed: ask its inputs, expand it in the kernel and send it as the message (in the
  // prompt's mode, else `mode`); nothing is sent when a question is cancelled.
  z.object({
    type: z.literal("prompts/run"),
    name: z.string().min(1).max(100),
    args: z.string().max(1_000_000),
    attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional(),
    mode: z.string().min(1).max(40).optional(),
  }),
] as const;

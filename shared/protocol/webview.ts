// Messages between the chat webview and the extension host. Validated on both sides.
import { z } from "zod";
import { requests } from "./methods.js";

export const KernelInfo = requests.initialize.result;

/** Extension → webview. */
export const ToWebview = z.discriminatedUnion("type", [
  z.object({ type: z.literal("kernel/starting") }),
  z.object({ type: z.literal("kernel/ready"), info: KernelInfo }),
  z.object({ type: z.literal("kernel/error"), message: z.string() }),
  // A crashed kernel is restarted with backoff; the view says so instead of going blank.
  z.object({ type: z.literal("kernel/restarting"), delayMs: z.number().int().nonnegative(), reason: z.string() }),
]);
export type ToWebview = z.infer<typeof ToWebview>;

/** Webview → extension. */
export const FromWebview = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("kernel/restart") }),
]);
export type FromWebview = z.infer<typeof FromWebview>;

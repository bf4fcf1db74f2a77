import type { z } from "zod";

/** Names the offending field so a caller can fix its request: "field `message`: expected string". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `field \`${i.path.length ? i.path.join(".") : "(params)"}\`: ${i.message}`)
    .join("; ");
}

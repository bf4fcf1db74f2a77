// datetime: the current date and time. Opt-in like the network tools (harness #11): the clock
// makes a turn's output depend on when it ran.
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import { defineTool, succeed } from "./toolKit.js";

const schema: ObjectSchema = { type: "object", properties: {}, additionalProperties: false };

export function datetimeTool(now: () => Date = () => new Date()): Tool {
  const definition = defineTool({
    name: "datetime",
    description: "The current date and time (UTC and the machine's local time zone).",
    parameters: schema,
    effectClass: "read",
    retryPolicy: "safe_retry",
    cancellation: "FinishOnceStarted",
    requiresApproval: false,
    config: {},
  });
  return {
    definition,
    async propose() {
      return { preview: { kind: "text", text: "read the current date and time" } };
    },
    async invoke() {
      const d = now();
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      return succeed(`UTC: ${d.toISOString()}\nlocal (${zone}): ${d.toLocaleString("en-CA", { timeZone: zone, hour12: false })}`);
    },
  };
}

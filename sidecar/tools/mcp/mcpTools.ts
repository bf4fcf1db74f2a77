// A running MCP server's tools as Hearth tools (issue 28, items 3 and 4). Each is namespaced
// (mcp_<server>_<tool>), has a schema inside the bounded vocabulary or is listed unavailable with
// the reason, always asks (unless an approval rule allows it), is effectful (a ledger claim,
// dispatched before it is sent, never re-run), and its identity covers the server's configuration
// and the tool's exact schema: a changed tool list is a new authority (harness #19).
import type { ObjectSchema } from "../../agent/ports/jsonSchema.js";
import type { Tool } from "../../agent/ports/tools.js";
import { checkArgs, defineTool, fail } from "../toolKit.js";
import { describeTransport, type McpServerSpec } from "./mcpConfig.js";
import type { McpListedTool, McpServerConnection } from "./mcpServerConnection.js";
import { mcpInputSchema } from "./mcpToolSchema.js";

const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_DESCRIPTION_CHARS = 1024;

export interface McpToolEntry {
  /** The server's own name for it. */
  readonly mcpName: string;
  /** The name the model calls. */
  readonly name: string;
  readonly available: boolean;
  readonly reason?: string;
  readonly tool?: Tool;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
}

/** mcp_<server>_<tool>, or null when it cannot be one valid tool name. */
export function namespacedName(server: string, tool: string): string | null {
  const name = `mcp_${slug(server)}_${slug(tool)}`;
  return TOOL_NAME.test(name) ? name : null;
}

export function mcpToolEntries(spec: McpServerSpec, connection: McpServerConnection): McpToolEntry[] {
  const taken = new Map<string, string>();
  return connection.tools.map((listed) => {
    const name = namespacedName(spec.name, listed.name);
    const unavailable = (reason: string): McpToolEntry => ({ mcpName: listed.name, name: name ?? listed.name, available: false, reason });
    if (name === null) return unavailable("its name does not fit a Hearth tool name (mcp_<server>_<tool>, at most 64 characters)");
    const clash = taken.get(name);
    if (clash !== undefined) return unavailable(`its name becomes ${name}, as ${JSON.stringify(clash)}'s does`);
    taken.set(name, listed.name);
    const schema = mcpInputSchema(listed.inputSchema);
    if (!schema.ok) return unavailable(schema.reason);
    return { mcpName: listed.name, name, available: true, tool: mcpTool(spec, connection, listed, name, schema.schema) };
  });
}

function mcpTool(
  spec: McpServerSpec,
  connection: McpServerConnection,
  listed: McpListedTool,
  name: string,
  parameters: ObjectSchema,
): Tool {
  const description = `[MCP server "${spec.name}"] ${listed.description}`.slice(0, MAX_DESCRIPTION_CHARS);
  const definition = defineTool({
    name,
    description,
    parameters,
    // A server's own hints (readOnlyHint, ...) are the server's word, not Hearth's: every call is treated as an effect.
    effectClass: "non_idempotent_write",
    retryPolicy: "never_auto_retry",
    // Cancellation is sent to the server (notifications/cancelled) and the call awaited; its outcome is then unknown.
    cancellation: "Interruptible",
    requiresApproval: true,
    config: { server: spec.name, serverDigest: spec.digest, tool: listed.name, inputSchema: listed.inputSchema },
  });
  return {
    definition,
    async propose(args) {
      return {
        preview: {
          kind: "text",
          text:
            `MCP server "${spec.name}" (${spec.source.label}: ${describeTransport(spec.transport)})\n` +
            `tool "${listed.name}" with arguments:\n${JSON.stringify(args, null, 2)}`,
        },
      };
    },
    async invoke(args, _proposal, ctx) {
      const problem = checkArgs(parameters, args);
      if (problem) return fail(`refused: ${name} ${problem}`);
      return connection.call(listed.name, args, ctx.signal);
    },
  };
}

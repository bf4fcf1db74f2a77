// mcp/list, mcp/confirm, mcp/control, mcp/resources: thin calls into the kernel's MCP servers (issue 28).
import type { ClientChannel } from "../clientChannel.js";
import type { McpContext } from "../mcp/mcpContext.js";
import type { McpHub } from "../mcp/mcpHub.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { Handlers } from "./types.js";

export function mcpHandlers(deps: {
  hub: McpHub;
  context: McpContext;
  gate: ShutdownGate;
  who: (client: ClientChannel) => { kind: string; clientId: string };
}) {
  return {
    "mcp/list": async () => deps.hub.list(),
    "mcp/resources": async (params) => deps.context.resources(params?.readOnly === true),
    "mcp/confirm": async (params, ctx) => {
      deps.gate.assertAccepting("mcp/confirm");
      return { server: await deps.hub.confirm(params.name, params.configDigest, params.inputs, deps.who(ctx.client)) };
    },
    "mcp/control": async (params) => {
      deps.gate.assertAccepting("mcp/control");
      return { server: await deps.hub.control(params.name, params.action) };
    },
  } satisfies Handlers;
}

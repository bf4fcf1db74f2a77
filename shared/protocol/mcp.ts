// MCP servers as the kernel sees them (issue 28): what `mcp/list` answers, for `hearth mcp list` and
// the editor's MCP view. A server's state, where it was configured, what it runs, whether the person
// must confirm it first, its last error, and each tool with whether a session may be offered it.
import { z } from "zod";

export const McpServerState = z.enum(["stopped", "starting", "running", "crashed", "off"]);

export const McpToolView = z.object({
  /** The name the model calls: mcp_<server>_<tool>. */
  name: z.string(),
  /** The server's own name for it. */
  mcpName: z.string(),
  available: z.boolean(),
  /** Why it is not offered (its schema is outside the bounded vocabulary, its name does not fit, ...). */
  reason: z.string().optional(),
});

export const McpServerView = z.object({
  name: z.string(),
  source: z.enum(["user", "workspace", "imported"]),
  /** Where it is configured: "hearth.mcp.servers", ".vscode/mcp.json", "Cline (…)". */
  sourceLabel: z.string(),
  transport: z.enum(["stdio", "http"]),
  /** The command line or address, as the person confirms it. */
  commandLine: z.string(),
  /** What a confirmation is for: this exact configuration. */
  configDigest: z.string(),
  state: McpServerState,
  /**
   * Why it does not start: `needs_confirmation` (a workspace or imported server the person has not
   * confirmed), `needs_input` (a `${input:…}` not given), `disabled` (its file says so), or null.
   */
  blocked: z.enum(["needs_confirmation", "needs_input", "disabled"]).nullable(),
  /** The inputs it needs that were not given. */
  missingInputs: z.array(z.string()),
  lastError: z.string().nullable(),
  restarts: z.number().int().nonnegative(),
  tools: z.array(McpToolView),
});
export type McpServerView = z.infer<typeof McpServerView>;

export const McpConfigProblemView = z.object({ sourceLabel: z.string(), server: z.string().nullable(), message: z.string() });

/** A running server's resource, as the `@` picker offers it (mcp/resources); attached by its URI. */
export const McpResourceView = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  description: z.string(),
  mimeType: z.string().nullable(),
});
export type McpResourceView = z.infer<typeof McpResourceView>;

export const McpResourceList = z.object({
  resources: z.array(McpResourceView),
  /** What could not be listed, in words (Restricted Mode, a server that failed to answer). */
  notes: z.array(z.string()),
});

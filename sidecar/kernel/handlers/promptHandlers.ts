// prompts/list and prompts/expand (issue 27, item 3): the workspace's prompt files for the slash
// menu and `hearth exec --prompt`, and one of them as the message to send, expanded here so that
// every client sends the same text for the same file. A running MCP server's prompts (issue 28,
// item 5) are listed after the files as `/server:prompt`; a name with a `:` is one of them.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { expandPrompt } from "../prompts/promptExpand.js";
import type { McpContext } from "../mcp/mcpContext.js";
import type { PromptReader } from "../prompts/promptCatalog.js";
import type { Handlers } from "./types.js";

export function promptHandlers(deps: { prompts: PromptReader; mcp: McpContext; workspaceFolder: string }) {
  return {
    "prompts/list": async (params) => {
      const readOnly = params?.readOnly === true;
      const files = await deps.prompts.list(readOnly);
      return { prompts: [...files.prompts, ...deps.mcp.prompts(readOnly)], notes: files.notes };
    },
    "prompts/expand": async (params) => {
      if (params.name.includes(":")) {
        const mcp = await deps.mcp.expand(params.name, params.inputs ?? {}, (params.args ?? "").trim(), params.readOnly === true);
        return { ...mcp, mode: null };
      }
      const prompt = await deps.prompts.find(params.name, params.readOnly === true);
      const expanded = expandPrompt(prompt, {
        args: (params.args ?? "").trim(),
        inputs: params.inputs ?? {},
        workspaceFolder: deps.workspaceFolder,
        ...params.editor,
      });
      if (!expanded.ok) throw new HearthError(ErrorCode.InvalidParams, `refused ${prompt.source}: ${expanded.problem}`);
      return { text: expanded.text, mode: prompt.mode, source: prompt.source };
    },
  } satisfies Handlers;
}

// prompts/list and prompts/expand (issue 27, item 3): the workspace's prompt files for the slash
// menu and `hearth exec --prompt`, and one of them as the message to send, expanded here so that
// every client sends the same text for the same file.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { expandPrompt } from "../prompts/promptExpand.js";
import type { PromptReader } from "../prompts/promptCatalog.js";
import type { Handlers } from "./types.js";

export function promptHandlers(deps: { prompts: PromptReader; workspaceFolder: string }) {
  return {
    "prompts/list": async (params) => deps.prompts.list(params?.readOnly === true),
    "prompts/expand": async (params) => {
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

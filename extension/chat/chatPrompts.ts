// The chat's prompt files and MCP prompts, editor side (issue 27, item 3; issue 28, item 5): the
// list for the slash menu (prompts/list, as trusted as this window's folder), and `/name args` run: each `${input:…}` asked of the person
// one by one (a cancelled question sends nothing and puts the command back in the box), the active
// editor's file and selection given when the file uses them, the kernel's expansion sent as the
// message. Plain Node (no `vscode` import): the questions and the editor come in as ports.
import type { Attachment } from "../../shared/protocol/attachments.js";
import { PROMPT_SELECTION_MAX_CHARS, type PromptEditor, type PromptView } from "../../shared/protocol/prompts.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import { askKernel, type FolderKernelDeps } from "./askKernel.js";

export interface PromptPorts {
  /** One question (VS Code's input box); undefined: the person cancelled it. */
  ask(question: { title: string; prompt: string; placeholder: string }): Promise<string | undefined>;
  /** The active editor's workspace-relative file and selected text, as far as there are any. */
  editor(): PromptEditor;
  /** Sends the expanded prompt as the person's message. */
  send(text: string, attachments: Attachment[], mode: string | undefined): Promise<void>;
}

export type ChatPromptsDeps = FolderKernelDeps & PromptPorts;

export interface PromptRun {
  name: string;
  args: string;
  attachments: Attachment[];
  /** The composer's mode: used unless the file names one. */
  mode: string | undefined;
}

export class ChatPrompts {
  private view: ((message: ToWebview) => void) | undefined;

  constructor(private readonly deps: ChatPromptsDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  async refresh(): Promise<PromptView[] | null> {
    const asked = await askKernel(this.deps, "prompts", "list the prompt files", (client, readOnly) =>
      client.request("prompts/list", { readOnly }),
    );
    this.view?.("error" in asked ? { type: "prompts/list", list: null, error: asked.error } : { type: "prompts/list", list: asked.answer });
    return "error" in asked ? null : asked.answer.prompts;
  }

  async run(run: PromptRun): Promise<void> {
    const typed = `/${run.name}${run.args ? ` ${run.args}` : ""}`;
    const giveBack = (level: "info" | "error", message: string) => {
      this.view?.({ type: "chat/notice", level, message });
      this.view?.({ type: "chat/unsent", text: typed, ...(run.attachments.length ? { attachments: run.attachments } : {}) });
    };
    // Read again now: the file may have changed since the menu listed it.
    const prompts = await this.refresh();
    if (prompts === null) return giveBack("error", `/${run.name} was not sent: the prompt files could not be listed (see above).`);
    const prompt = prompts.find((p) => p.name === run.name && !p.problem) ?? prompts.find((p) => p.name === run.name);
    if (!prompt)
      return giveBack("error", `/${run.name} was not sent: there is no prompt file or running MCP server's prompt by that name any more.`);
    if (prompt.problem) return giveBack("error", `/${run.name} was not sent: ${prompt.problem}`);
    const inputs: Record<string, string> = {};
    for (const [i, input] of prompt.inputs.entries()) {
      const answer = await this.deps.ask({
        title: `/${prompt.name} (${i + 1} of ${prompt.inputs.length})`,
        prompt: input.optional ? `${input.name} (optional)` : input.name,
        placeholder: input.placeholder,
      });
      if (answer === undefined) return giveBack("info", `/${prompt.name} was not sent: the question “${input.name}” was cancelled.`);
      inputs[input.name] = answer;
    }
    const editor = prompt.needs.selection || prompt.needs.file ? this.deps.editor() : {};
    if ((editor.selection?.length ?? 0) > PROMPT_SELECTION_MAX_CHARS)
      return giveBack(
        "error",
        `/${prompt.name} was not sent: the selection is ${editor.selection!.length} characters, more than the ${PROMPT_SELECTION_MAX_CHARS} ` +
          "a prompt takes; select less, or attach the file (+ File) and name it in the message.",
      );
    const expanded = await askKernel(this.deps, "prompts", `run /${prompt.name}`, (client, readOnly) =>
      client.request("prompts/expand", { name: prompt.name, args: run.args, inputs, editor, readOnly }),
    );
    if ("error" in expanded) return giveBack("error", `/${prompt.name} was not sent. ${expanded.error}`);
    await this.deps.send(expanded.answer.text, run.attachments, expanded.answer.mode ?? run.mode);
  }
}

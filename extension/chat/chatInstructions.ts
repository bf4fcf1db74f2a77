// The chat's project instructions, editor side (issue 27, item 1): asks the kernel what the next turn
// would be shown (instructions/list, as trusted as this window's folder) and switches a source on or
// off (instructions/set), sending the list to the view each time. Plain Node (no `vscode` import).
import type { InstructionsInForce } from "../../shared/protocol/instructions.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelClient } from "../../shared/node/kernelClient.js";
import { askKernel, type FolderKernelDeps } from "./askKernel.js";

/** restricted(): its files are not shown to the model, and the list says so. */
export type ChatInstructionsDeps = FolderKernelDeps;

export class ChatInstructions {
  private view: ((message: ToWebview) => void) | undefined;

  constructor(private readonly deps: ChatInstructionsDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  refresh(): Promise<InstructionsInForce | null> {
    return this.show("list the project instructions", (client, readOnly) => client.request("instructions/list", { readOnly }));
  }

  set(path: string, enabled: boolean): Promise<InstructionsInForce | null> {
    return this.show(`turn ${path} ${enabled ? "on" : "off"}`, (client, readOnly) =>
      client.request("instructions/set", { path, enabled, readOnly }),
    );
  }

  private async show(
    what: string,
    call: (client: KernelClient, readOnly: boolean) => Promise<InstructionsInForce>,
  ): Promise<InstructionsInForce | null> {
    const asked = await askKernel(this.deps, "instructions", what, call);
    if ("error" in asked) {
      this.view?.({ type: "instructions/list", inForce: null, error: asked.error });
      return null;
    }
    this.view?.({ type: "instructions/list", inForce: asked.answer });
    return asked.answer;
  }
}

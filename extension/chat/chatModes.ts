// The composer's modes, editor side (issue 27, item 2): asks the kernel which modes the next message
// may be sent in (modes/list, as trusted as this window's folder) and sends the list to the view.
// Plain Node (no `vscode` import).
import type { ToWebview } from "../../shared/protocol/webview.js";
import { askKernel, type FolderKernelDeps } from "./askKernel.js";

/** restricted(): only the built-in modes exist. */
export type ChatModesDeps = FolderKernelDeps;

export class ChatModes {
  private view: ((message: ToWebview) => void) | undefined;

  constructor(private readonly deps: ChatModesDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  async refresh(): Promise<void> {
    const asked = await askKernel(this.deps, "modes", "list the modes", (client, readOnly) => client.request("modes/list", { readOnly }));
    this.view?.("error" in asked ? { type: "modes/list", list: null, error: asked.error } : { type: "modes/list", list: asked.answer });
  }
}

// The composer's modes, editor side (issue 27, item 2): asks the kernel which modes the next message
// may be sent in (modes/list, as trusted as this window's folder) and sends the list to the view.
// Plain Node (no `vscode` import).
import { errorMessage } from "../../shared/errors.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";

export interface ChatModesDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted">;
  log: KernelLog;
  /** True while the folder is untrusted: only the built-in modes exist. */
  restricted(): boolean;
}

export class ChatModes {
  private view: ((message: ToWebview) => void) | undefined;

  constructor(private readonly deps: ChatModesDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  async refresh(): Promise<void> {
    try {
      const client = await this.deps.kernel.ensureStarted();
      this.view?.({ type: "modes/list", list: await client.request("modes/list", { readOnly: this.deps.restricted() }) });
    } catch (e) {
      const error = `Could not list the modes: ${errorMessage(e)}`;
      this.deps.log.warn(`modes: ${error}`);
      this.view?.({ type: "modes/list", list: null, error });
    }
  }
}

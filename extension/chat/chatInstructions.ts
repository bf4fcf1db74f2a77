// The chat's project instructions, editor side (issue 27, item 1): asks the kernel what the next turn
// would be shown (instructions/list, as trusted as this window's folder) and switches a source on or
// off (instructions/set), sending the list to the view each time. Plain Node (no `vscode` import).
import { errorMessage } from "../../shared/errors.js";
import type { InstructionsInForce } from "../../shared/protocol/instructions.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelClient } from "../../shared/node/kernelClient.js";
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";

export interface ChatInstructionsDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted">;
  log: KernelLog;
  /** True while the folder is untrusted: its files are not shown to the model, and the list says so. */
  restricted(): boolean;
}

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
    try {
      const inForce = await call(await this.deps.kernel.ensureStarted(), this.deps.restricted());
      this.view?.({ type: "instructions/list", inForce });
      return inForce;
    } catch (e) {
      const error = `Could not ${what}: ${errorMessage(e)}`;
      this.deps.log.warn(`instructions: ${error}`);
      this.view?.({ type: "instructions/list", inForce: null, error });
      return null;
    }
  }
}

// Which model a chat goes on with (issue 25 item 2): the one it was made with, unless the person
// chose to keep it although another is set now. Asks the kernel for the chat's model; chatModel.ts
// has the words, chatController.ts says them.
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import type { SessionSummary } from "../../shared/protocol/index.js";
import { errorMessage } from "../../shared/errors.js";
import { modelMismatch } from "./chatModel.js";

export class ChatModelChoice {
  /** Chats whose person chose to go on with the chat's own model although another is set (this window). */
  private readonly kept = new Set<string>();

  constructor(
    private readonly deps: {
      kernel: Pick<KernelSupervisor, "ensureStarted">;
      /** The `hearth.model` setting. */
      model(): string;
      log: KernelLog;
    },
  ) {}

  /** Why sending in this chat would load another model than the one set; null when it would not (or cannot be told). */
  async mismatch(sessionId: string): Promise<string | null> {
    if (this.kept.has(sessionId)) return null;
    const session = await this.session(sessionId);
    return session ? modelMismatch(session, this.deps.model()) : null;
  }

  /** "Use this chat's model": its next message loads its own model, the person having chosen it. */
  keep(sessionId: string): void {
    this.kept.add(sessionId);
  }

  /** The chat's title and model; undefined when the kernel cannot say (the caller's next request reports why). */
  async session(sessionId: string): Promise<SessionSummary | undefined> {
    try {
      const client = await this.deps.kernel.ensureStarted();
      return (await client.request("session/history", { sessionId, limit: 1 })).session;
    } catch (e) {
      this.deps.log.warn(`chat: could not read session ${sessionId}: ${errorMessage(e)}`);
      return undefined;
    }
  }
}

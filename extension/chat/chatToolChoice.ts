// Which tools a chat goes on with (issue 25 item 2): after the tools Hearth offers changed, an older
// chat's message is refused (harness #19) and the person may choose "Use the old tools for this
// chat". The kernel decides whether it can (session/keepTools) and journals the choice; this window
// then sends the refused message again. chatController.ts says the words.
import type { KernelClient } from "../../shared/node/kernelClient.js";

/** Said once, when the kernel accepted the choice. */
export const KEPT_TOOLS = "This chat goes on with the tools it began with; new chats use the tools set now. Your message is sent again.";

/** What the chat says when the kernel refused the choice (its reason follows). */
export const NOT_KEPT = "This chat cannot go on with its earlier tools";

/**
 * Keeps the chat's earlier tools (refused with the kernel's reason where it cannot be honoured);
 * returns the chat's last message when it went unanswered (the one the change refused), to send again.
 */
export async function keepChatTools(client: KernelClient, sessionId: string, readOnly: boolean): Promise<string | null> {
  await client.request("session/keepTools", { sessionId, readOnly });
  const { messages } = await client.request("session/history", { sessionId, limit: 1 });
  const last = messages.at(-1);
  return last?.role === "user" ? last.text : null;
}

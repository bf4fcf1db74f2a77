// What the chat view asks of the editor and the kernel beyond a turn (issue 15): Copy and Insert at
// cursor of a code block, an error's command, and the history list (list, rename, hide).
import * as vscode from "vscode";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import type { ChatController } from "./chatController.js";

type Post = (message: ToWebview) => void;

export async function copyCode(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
}

/** Inserts at every cursor of the editor last active (the chat has focus, so it is the one the person left). */
export async function insertCode(text: string, post: Post): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    post({
      type: "chat/notice",
      level: "info",
      message: "Nothing to insert into: open a file in an editor, place the cursor, then press Insert again.",
    });
    return;
  }
  const done = await editor.edit((b) => {
    for (const s of editor.selections) b.replace(s, text);
  });
  if (!done)
    post({
      type: "chat/notice",
      level: "error",
      message: `The code was not inserted: ${editor.document.uri.fsPath} refused the edit (read-only?).`,
    });
}

export class ChatSessions {
  constructor(
    private readonly kernel: Pick<KernelSupervisor, "ensureStarted">,
    private readonly chat: ChatController,
  ) {}

  async list(post: Post): Promise<void> {
    try {
      const client = await this.kernel.ensureStarted();
      const { sessions } = await client.request("session/list", { limit: 200 });
      post({ type: "session/list", sessions, currentSessionId: this.chat.currentSessionId ?? null });
    } catch (e) {
      post({ type: "chat/notice", level: "error", message: `The list of past chats could not be loaded: ${(e as Error).message}` });
    }
  }

  async rename(sessionId: string, title: string, post: Post): Promise<void> {
    try {
      const client = await this.kernel.ensureStarted();
      await client.request("session/rename", { sessionId, title });
      // The current chat's header shows the new title.
      if (sessionId === this.chat.currentSessionId) await this.chat.showTranscript();
    } catch (e) {
      post({ type: "chat/notice", level: "error", message: `The chat was not renamed: ${(e as Error).message}` });
    }
    await this.list(post);
  }

  /** Delete in the list: hidden from it, kept in the journal. The current chat gives way to a new one. */
  async hide(sessionId: string, post: Post): Promise<void> {
    try {
      const client = await this.kernel.ensureStarted();
      await client.request("session/hide", { sessionId });
      if (sessionId === this.chat.currentSessionId) await this.chat.newChat();
    } catch (e) {
      post({ type: "chat/notice", level: "error", message: `The chat was not deleted: ${(e as Error).message}` });
    }
    await this.list(post);
  }
}

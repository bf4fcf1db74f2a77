// What the chat view asks of the editor and the kernel beyond a turn (issue 15): Copy and Insert at
// cursor and Apply to file of a code block, an error's command, and the history list (list, rename,
// hide, erase).
import * as vscode from "vscode";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { applyTarget, inFolder, NO_FOLDER_TO_APPLY } from "./applyTarget.js";
import type { ChatController } from "./chatController.js";
import { errorMessage } from "../../shared/errors.js";

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

/**
 * Apply to file (issue 15): picks the target (the fence's file, the active editor's, or asks), refuses
 * what Hearth may not write, and has the kernel propose the write. Nothing is written from here.
 */
export async function applyCode(text: string, named: string | undefined, chat: ChatController | undefined, post: Post): Promise<void> {
  const folderUri = vscode.workspace.workspaceFolders?.[0]?.uri;
  const folder = folderUri?.scheme === "file" && chat ? folderUri.fsPath : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  let target = applyTarget({
    folder,
    restricted: !vscode.workspace.isTrusted,
    named,
    activeFile: active?.scheme === "file" ? active.fsPath : undefined,
  });
  if (target.kind === "ask" && folder) {
    const answer = await vscode.window.showInputBox({
      title: "Apply the code block to which file?",
      prompt: `A path in ${folder}. The change is proposed in that file for your approval; nothing is written before you accept it.`,
      placeHolder: "src/file.ts",
      ignoreFocusOut: true,
    });
    if (!answer?.trim()) {
      post({ type: "chat/notice", level: "info", message: "Apply to file was cancelled: no file was chosen, so nothing was proposed." });
      return;
    }
    target = inFolder(folder, answer.trim(), "the file you named");
  }
  if (target.kind === "refused" || !chat) {
    post({ type: "chat/notice", level: "error", message: target.kind === "refused" ? target.message : NO_FOLDER_TO_APPLY });
    return;
  }
  if (target.kind === "file") await chat.apply(target.path, text);
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
      post({ type: "chat/notice", level: "error", message: `The list of past chats could not be loaded: ${errorMessage(e)}` });
    }
  }

  async rename(sessionId: string, title: string, post: Post): Promise<void> {
    try {
      const client = await this.kernel.ensureStarted();
      await client.request("session/rename", { sessionId, title });
      // The current chat's header shows the new title.
      if (sessionId === this.chat.currentSessionId) await this.chat.showTranscript();
    } catch (e) {
      post({ type: "chat/notice", level: "error", message: `The chat was not renamed: ${errorMessage(e)}` });
    }
    await this.list(post);
  }

  /**
   * Erase (issue 15): explicit and irreversible, so a modal confirmation says so first. The kernel
   * refuses while a turn of the chat runs; the current chat gives way to a new one.
   */
  async erase(sessionId: string, post: Post): Promise<void> {
    const ERASE = "Erase for good";
    let title = sessionId;
    try {
      const client = await this.kernel.ensureStarted();
      const history = await client.request("session/history", { sessionId });
      title = history.session.title || "Untitled chat";
      // Said before asking: a confirmation the kernel would then refuse helps no one (it refuses too).
      if (history.runs.some((r) => r.status === "active")) {
        post({
          type: "chat/notice",
          level: "error",
          message: `The chat "${title}" was not erased: a turn of it is running. Press Stop (or wait for the turn to end), then erase it again.`,
        });
        return;
      }
      const answer = await vscode.window.showWarningMessage(
        `Erase the chat "${title}" for good?`,
        {
          modal: true,
          detail:
            "Its messages, attached context, summaries and tool results are removed from Hearth's journal. " +
            "This cannot be undone, and the chat can no longer be reopened or its edits undone. " +
            "(Delete only hides a chat.)",
        },
        ERASE,
      );
      if (answer !== ERASE) {
        post({ type: "chat/notice", level: "info", message: `The chat "${title}" was not erased (not confirmed).` });
        return;
      }
      const { messages } = await client.request("session/erase", { sessionId });
      if (sessionId === this.chat.currentSessionId) await this.chat.newChat();
      post({
        type: "chat/notice",
        level: "info",
        message: `Erased the chat "${title}": ${messages} messages were removed from the journal.`,
      });
    } catch (e) {
      post({ type: "chat/notice", level: "error", message: `The chat "${title}" was not erased: ${errorMessage(e)}` });
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
      post({ type: "chat/notice", level: "error", message: `The chat was not deleted: ${errorMessage(e)}` });
    }
    await this.list(post);
  }
}

// What a prompt file's `${file}` and `${selection}` read (issue 27, item 3): the active editor's file,
// if it lies in the workspace folder, and its selected text as shown (unsaved edits included: the
// person selected what they see). The chat has the focus, so the active editor is the one they left.
import * as vscode from "vscode";
import type { PromptEditor } from "../../shared/protocol/prompts.js";
import { inFolder } from "./applyTarget.js";

export function promptEditor(): PromptEditor {
  const editor = vscode.window.activeTextEditor;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (editor?.document.uri.scheme !== "file" || folder?.scheme !== "file") return {};
  const target = inFolder(folder.fsPath, editor.document.uri.fsPath, "the active editor's file");
  if (target.kind !== "file") return {};
  const selection = editor.selection.isEmpty ? undefined : editor.document.getText(editor.selection);
  return { file: target.path, ...(selection ? { selection } : {}) };
}

export async function askPromptInput(q: { title: string; prompt: string; placeholder: string }): Promise<string | undefined> {
  return vscode.window.showInputBox({ title: q.title, prompt: q.prompt, placeHolder: q.placeholder, ignoreFocusOut: true });
}

// "Hearth: Undo Last Turn's Edits" (issue 14 item 5): a non-modal question naming the files, then the
// undo and its per-file outcome. Never runs without the person's answer.
import * as vscode from "vscode";
import { confirmText, resultText, type TurnUndo } from "./turnUndo.js";
import { plainText } from "../plainText.js";

const UNDO = "Undo Edits";

export function registerUndoCommand(undo: TurnUndo): vscode.Disposable {
  return vscode.commands.registerCommand("hearth.undoLastTurnEdits", async () => {
    const turn = await undo.lastUndoable();
    if (!turn) {
      void vscode.window.showInformationMessage(
        "Hearth: no turn of this chat has edits left to undo (only write_file and edit_file changes are kept).",
      );
      return;
    }
    if ((await vscode.window.showWarningMessage(confirmText(turn), UNDO)) !== UNDO) return;
    const result = await undo.undo(turn.turnId);
    const text = plainText(`Hearth: ${resultText(result)}`);
    if (result.error || result.files.some((f) => f.outcome === "refused")) void vscode.window.showWarningMessage(text);
    else void vscode.window.showInformationMessage(text);
  });
}

// How a pending proposal is drawn, in theme colours, as Continue draws one (issue 25 item 9): in
// the proposal view (proposalView.ts) the lines it removes are whole lines on the removed-line
// background and the lines it adds are whole lines of their own on the inserted-line background,
// each marked in the overview ruler; a hover on either shows the hunk as a diff. A new file's view
// is all inserted lines.
import * as vscode from "vscode";
import { DisposableStore } from "../../shared/lifecycle.js";
import type { Hunk } from "./hunks.js";
import type { ProposalView } from "./proposalView.js";

export class ProposalDecorations implements vscode.Disposable {
  private readonly types = new DisposableStore();
  private readonly removed = this.types.add(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("diffEditor.removedLineBackground"),
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );
  private readonly inserted = this.types.add(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );

  /** Draws the proposal `view` of `hunks` over `editor` (replacing what was drawn there). */
  showView(editor: vscode.TextEditor, view: ProposalView, hunks: readonly Hunk[]): void {
    // The hunk a view line belongs to: the last one starting at or before it.
    const hoverAt = (line: number) => {
      let index = 0;
      while (index + 1 < view.hunkStarts.length && view.hunkStarts[index + 1]! <= line) index++;
      return hunkHover(hunks[index]!);
    };
    const options = (lines: readonly number[]) =>
      lines.map((line) => ({ range: new vscode.Range(line, 0, line, 0), hoverMessage: hoverAt(line) }));
    editor.setDecorations(this.removed, options(view.removed));
    editor.setDecorations(this.inserted, options(view.added));
  }

  /** Draws a new file's pending view: all of it is proposed. */
  showNewFile(editor: vscode.TextEditor): void {
    editor.setDecorations(this.inserted, [new vscode.Range(0, 0, Math.max(editor.document.lineCount - 1, 0), 0)]);
  }

  clear(editor: vscode.TextEditor): void {
    for (const type of [this.removed, this.inserted]) editor.setDecorations(type, []);
  }

  dispose(): void {
    this.types.dispose();
  }
}

function hunkHover(hunk: Hunk): vscode.MarkdownString {
  const lines = [...hunk.removed.map((l) => `- ${l}`), ...hunk.added.map((l) => `+ ${l}`)];
  return new vscode.MarkdownString().appendMarkdown("**Proposed by Hearth**\n\n").appendCodeblock(lines.join("\n"), "diff");
}

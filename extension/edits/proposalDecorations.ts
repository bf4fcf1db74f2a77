// How a pending proposal is drawn in the file, in theme colours. The document is never changed:
// lines the proposal removes keep their real text on a removed-line background, and the proposed
// lines are drawn as `after` text at the end of the hunk (decorations add no lines, so a long
// insertion is summarised there; the hover and Show diff show it whole). Nothing a person types is
// ever hidden.
import * as vscode from "vscode";
import { DisposableStore } from "../../shared/lifecycle.js";
import type { Hunk } from "./hunks.js";

const SHOWN_MAX = 160;

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
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );
  /** A new file's pending view: every line is proposed. */
  private readonly newLines = this.types.add(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    }),
  );

  /** Draws `hunks` over `editor` (replacing what was drawn there). */
  showHunks(editor: vscode.TextEditor, hunks: readonly Hunk[]): void {
    const last = editor.document.lineCount - 1;
    const removed: vscode.DecorationOptions[] = [];
    const inserted: vscode.DecorationOptions[] = [];
    for (const hunk of hunks) {
      const hover = hunkHover(hunk);
      for (let i = 0; i < hunk.removed.length; i++) {
        const line = Math.min(hunk.start + i, last);
        removed.push({ range: new vscode.Range(line, 0, line, 0), hoverMessage: hover });
      }
      if (hunk.added.length === 0) continue;
      // The proposed lines follow the lines they replace; an insertion follows the line before it.
      const atTop = hunk.removed.length === 0 && hunk.start === 0;
      const anchor = Math.min(hunk.removed.length ? hunk.start + hunk.removed.length - 1 : Math.max(hunk.start - 1, 0), last);
      const end = editor.document.lineAt(anchor).range.end;
      const attachment: vscode.ThemableDecorationAttachmentRenderOptions = {
        contentText: addedSummary(hunk.added),
        backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
        margin: atTop ? "0 1em 0 0" : "0 0 0 1em",
        fontStyle: "italic",
      };
      inserted.push({
        range: atTop ? new vscode.Range(0, 0, 0, 0) : new vscode.Range(end, end),
        hoverMessage: hover,
        renderOptions: atTop ? { before: attachment } : { after: attachment },
      });
    }
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.inserted, inserted);
  }

  /** Draws a new file's pending view: all of it is proposed. */
  showNewFile(editor: vscode.TextEditor): void {
    editor.setDecorations(this.newLines, [new vscode.Range(0, 0, Math.max(editor.document.lineCount - 1, 0), 0)]);
  }

  clear(editor: vscode.TextEditor): void {
    for (const type of [this.removed, this.inserted, this.newLines]) editor.setDecorations(type, []);
  }

  dispose(): void {
    this.types.dispose();
  }
}

/** One line of `after` text: the proposed lines joined with ⏎, cut with how many are left. */
function addedSummary(added: readonly string[]): string {
  const joined = `+ ${added.join(" ⏎ ")}`;
  if (joined.length <= SHOWN_MAX) return joined;
  return `${joined.slice(0, SHOWN_MAX - 1)}… (${added.length} lines proposed: hover or Show diff)`;
}

function hunkHover(hunk: Hunk): vscode.MarkdownString {
  const lines = [...hunk.removed.map((l) => `- ${l}`), ...hunk.added.map((l) => `+ ${l}`)];
  return new vscode.MarkdownString().appendMarkdown("**Proposed by Hearth**\n\n").appendCodeblock(lines.join("\n"), "diff");
}

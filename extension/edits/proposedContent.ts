// Read-only documents that hold proposed content: a new file's pending view and the right side of
// Show diff. Each entry lives while its proposal is pending and is removed when it is answered.
import * as vscode from "vscode";

export const PROPOSED_SCHEME = "hearth-proposed";

export class ProposedContent implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private next = 0;

  /** A virtual document named like the target file (so the editor picks its language). */
  add(filePath: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${this.next++}/${filePath}` });
    this.contents.set(uri.toString(), content);
    return uri;
  }

  remove(uri: vscode.Uri): void {
    this.contents.delete(uri.toString());
  }

  /** How many documents are held (the log says it, so a leak shows). */
  get size(): number {
    return this.contents.size;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }
}

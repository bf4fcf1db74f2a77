// write_file and edit_file proposals, answered where the person reads code (issue 14): the
// proposal opens (a preview editor that leaves focus in the chat) as its file with the change merged
// in, removed lines red and added lines green, each a line of its own (proposalView.ts, issue 25
// item 9), with code lenses: "Accept (n hunks)", "Reject", "Show diff" at the top, "Reject this
// hunk" on each hunk. Accept approves the call exactly as proposed; the kernel writes, after re-verifying the
// target (never a WorkspaceEdit from here). Typing in the target while it is pending denies the
// call at once, so typed text is never overwritten (ARCHITECTURE "Edits and code lenses").
import path from "node:path";
import * as vscode from "vscode";
import { DisposableStore } from "../../shared/lifecycle.js";
import type { ServerRequestParams } from "../../shared/protocol/index.js";
import { OneAnswer, type Answer } from "../approvals/oneAnswer.js";
import { acceptedReason, hunkRejectedReason, rejectedReason, typedWhilePendingReason } from "./editReasons.js";
import { hunkLineFrom, proposalHunks, type Hunk } from "./hunks.js";
import { DecisionGuard } from "./decisionGuard.js";
import { EDIT_COMMANDS, PENDING_CONTEXT } from "./editCommands.js";
import { LensPlacement, proposalLenses } from "./proposalLenses.js";
import { ProposalDecorations } from "./proposalDecorations.js";
import { proposalView, type ProposalView } from "./proposalView.js";
import type { ProposedContent } from "./proposedContent.js";
import { PROPOSED_SCHEME } from "./proposedContent.js";
import { errorMessage } from "../../shared/errors.js";

type Request = ServerRequestParams<"approval/request">;

/** Where the chat hears that a proposal waits in the editor, and that it was decided (its card says so). */
export interface ProposalWatcher {
  waiting(callId: string, file: string): void;
  decided(callId: string): void;
}

interface Proposal {
  readonly callId: string;
  /** Workspace-relative, as the kernel names it. */
  readonly file: string;
  /** The file itself: typing in it while the proposal waits denies the call. */
  readonly fileUri: vscode.Uri;
  /** Where it is drawn: a read-only document of the proposal view, or (a new file) of its content. */
  readonly shownIn: vscode.Uri;
  /** An existing file's proposal view (undefined for a new file). */
  readonly view: ProposalView | undefined;
  readonly isNew: boolean;
  readonly hunks: readonly Hunk[];
  readonly newContent: string;
  readonly one: OneAnswer;
  /** Documents made for this proposal (its new-file view, Show diff's sides): removed when answered. */
  readonly documents: vscode.Uri[];
  /** Show diff's proposed sides: they carry the top lenses too where diff editors show lenses (`diffEditor.codeLens`). */
  readonly diffSides: Set<string>;
  /** Its lens rows begin with an inert label, away from where the last click decided (proposalLenses.ts). */
  led: boolean;
}

export class EditProposals implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly subscriptions = new DisposableStore();
  private readonly pending = new Map<string, Proposal>();
  private readonly lensesChanged = this.subscriptions.add(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly decorations = this.subscriptions.add(new ProposalDecorations());
  private readonly guard = new DecisionGuard();
  private readonly placement = new LensPlacement();

  constructor(
    private readonly workspace: string,
    private readonly proposed: ProposedContent,
    private readonly log: vscode.LogOutputChannel,
    private readonly watcher?: ProposalWatcher,
  ) {
    const add = <T extends vscode.Disposable>(d: T): T => this.subscriptions.add(d);
    add(vscode.languages.registerCodeLensProvider([{ scheme: "file" }, { scheme: PROPOSED_SCHEME }], this));
    // From a lens with its proposal's id (a click), or from a keybinding or the palette (issue 25
    // item 5) for the proposal in the active editor.
    add(vscode.commands.registerCommand(EDIT_COMMANDS.accept, (callId?: string) => this.accept(callId)));
    add(
      vscode.commands.registerCommand(EDIT_COMMANDS.reject, (callId?: string) =>
        this.decide(callId, (p) => ({ decision: "deny", reason: rejectedReason(p.file) })),
      ),
    );
    add(vscode.commands.registerCommand(EDIT_COMMANDS.nextHunk, () => this.goToHunk(1)));
    add(vscode.commands.registerCommand(EDIT_COMMANDS.previousHunk, () => this.goToHunk(-1)));
    add(vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()));
    add(
      vscode.commands.registerCommand(EDIT_COMMANDS.rejectHunk, (callId: string, index: number) =>
        this.decide(callId, (p) => ({ decision: "deny", reason: hunkRejectedReason(p.file, p.hunks[index]!) })),
      ),
    );
    add(vscode.commands.registerCommand(EDIT_COMMANDS.showDiff, (callId: string) => this.showDiff(callId)));
    add(vscode.commands.registerCommand(EDIT_COMMANDS.reveal, (callId: string) => this.reveal(callId)));
    add(vscode.workspace.onDidChangeTextDocument((e) => this.onDocumentChanged(e)));
    add(vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.draw(e))));
  }

  /** Shows the proposal in its file and waits for the person (or the turn's end). */
  async ask(req: Request, signal: AbortSignal): Promise<Answer> {
    const preview = req.preview;
    if (preview.kind !== "diff" || preview.newContent === undefined) throw new Error("the request carries no proposed content");
    const callId = req.call.callId;
    const fileUri = vscode.Uri.file(path.join(this.workspace, preview.path));
    const current = await readText(fileUri);
    const isNew = current === null;
    const hunks = proposalHunks(current, preview.newContent);
    const view = current === null ? undefined : proposalView(current, hunks);
    const shownIn = this.proposed.add(preview.path, view ? view.text : preview.newContent);
    const documents: vscode.Uri[] = [shownIn];
    const one = new OneAnswer(signal, (answer) => this.settled(callId, answer));
    const proposal: Proposal = {
      callId,
      file: preview.path,
      fileUri,
      shownIn,
      view,
      isNew,
      hunks,
      newContent: preview.newContent,
      one,
      documents,
      diffSides: new Set(),
      led: this.placement.forNew(),
    };
    if (one.settled) return one.promise;
    this.pending.set(callId, proposal);
    this.watcher?.waiting(callId, proposal.file);
    this.lensesChanged.fire();
    this.updateContext();
    try {
      // preserveFocus: the chat box keeps the caret; preview: the tab is reused, not piled up.
      this.draw(await vscode.window.showTextDocument(shownIn, { preview: true, preserveFocus: true }));
    } catch (e) {
      // Never left pending where nobody can see it: a proposal that cannot be shown is denied.
      one.settle({
        decision: "deny",
        reason: `the editor could not show the proposed change to ${preview.path} (${errorMessage(e)})`,
      });
    }
    return one.promise;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const p of this.pending.values()) {
      const inDiff = p.diffSides.has(document.uri.toString());
      if (p.shownIn.toString() !== document.uri.toString() && !inDiff) continue;
      const specs = proposalLenses({
        file: p.file,
        isNew: p.isNew,
        hunkCount: p.hunks.length,
        hunkStarts: p.view?.hunkStarts,
        lineCount: document.lineCount,
        inDiff,
        led: p.led,
      });
      for (const lens of specs) {
        const at = new vscode.Range(lens.line, 0, lens.line, 0);
        // No command: drawn as text, nothing to click (the label of a led row).
        const args = lens.action === "rejectHunk" ? [p.callId, lens.hunk] : [p.callId];
        const command = lens.action ? EDIT_COMMANDS[lens.action] : "";
        lenses.push(
          new vscode.CodeLens(at, { title: lens.title, command, arguments: args, ...(lens.tooltip ? { tooltip: lens.tooltip } : {}) }),
        );
      }
    }
    return lenses;
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  /** `clicked`: a lens's id (a click); undefined: a key or the palette, for the active editor's proposal. */
  private accept(clicked: string | undefined): void {
    this.decide(clicked, (p) => {
      // An editor with unsaved changes to the target is never silently overwritten.
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.fileUri.toString());
      if (!p.isNew && open?.isDirty) return { decision: "deny", reason: typedWhilePendingReason(p.file) };
      return { decision: "approve", reason: acceptedReason(p.file, p.hunks.length) };
    });
  }

  private decide(clicked: string | undefined, answer: (p: Proposal) => Answer): void {
    const callId = clicked ?? this.activeProposal()?.callId;
    if (callId === undefined) {
      void vscode.window.showInformationMessage(
        "Hearth: the active editor shows no proposed change; open the file whose change waits (its Accept lens is at the top).",
      );
      return;
    }
    const p = this.pending.get(callId);
    if (!p) {
      void vscode.window.showInformationMessage("Hearth: this proposal was already answered (or its turn ended).");
      return;
    }
    // A click never lands on the next proposal's lens (proposalLenses.ts); a key has no place, so a
    // second press right after a decision is what the guard stops.
    if (clicked === undefined && !this.guard.allows(callId, Date.now())) {
      this.log.info(
        `edit proposal ${callId} for ${p.file}: a key decision right after the previous proposal's was ignored (a repeated key)`,
      );
      vscode.window.setStatusBarMessage(
        `Hearth: the key went to the next proposed change (${p.file}) right after the last one and was ignored; press it again to decide it.`,
        5_000,
      );
      return;
    }
    if (clicked !== undefined) {
      // What stays and what comes next stands away from where this click was.
      const led = this.placement.clicked(p.led);
      for (const other of this.pending.values()) other.led = led;
    }
    // Decided in the file, on its lens (issue 24: journaled with the decision).
    p.one.settle({ ...answer(p), surface: "lens" });
  }

  /** The pending proposal the active editor shows (its file, its new-file view, or Show diff's proposed side). */
  private activeProposal(): Proposal | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    if (!uri) return undefined;
    return [...this.pending.values()].find((p) => p.shownIn.toString() === uri || p.diffSides.has(uri));
  }

  private updateContext(): void {
    void vscode.commands.executeCommand("setContext", PENDING_CONTEXT, this.activeProposal() !== undefined);
  }

  /**
   * A decided proposal's tabs go (issue 25 item 9): Show diff's and the proposal view's, whose
   * content would be stale. An accepted change to an existing file leaves the file itself in the
   * view's place (it shows the kernel's write once it lands); a new file appears once written.
   */
  private closeTabs(p: Proposal, answer: Answer): void {
    const uris = new Set(p.documents.map((u) => u.toString()));
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    const stale = tabs.filter(
      (tab) =>
        (tab.input instanceof vscode.TabInputTextDiff && uris.has(tab.input.modified.toString())) ||
        (tab.input instanceof vscode.TabInputText && uris.has(tab.input.uri.toString())),
    );
    const viewShown = stale.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === p.shownIn.toString());
    if (stale.length) void vscode.window.tabGroups.close(stale, true);
    if (viewShown && answer.decision === "approve" && !p.isNew) {
      void vscode.window.showTextDocument(p.fileUri, { preview: true, preserveFocus: true }).then(undefined, (e: unknown) => {
        this.log.debug(`edit proposal ${p.callId}: ${p.file} could not be shown after Accept (${errorMessage(e)})`);
      });
    }
  }

  /** Moves the cursor to the next or previous hunk of the active editor's proposal. */
  private goToHunk(step: 1 | -1): void {
    const editor = vscode.window.activeTextEditor;
    const p = this.activeProposal();
    if (!editor || !p) return;
    const line = hunkLineFrom(p.view?.hunkStarts ?? [0], editor.selection.active.line, step, editor.document.lineCount);
    if (line === undefined) return;
    const at = new vscode.Position(line, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** A person typing in a pending target: deny now, keep their text (issue 14). */
  private onDocumentChanged(e: vscode.TextDocumentChangeEvent): void {
    // A reload from disk (not dirty) is not typing: should the file differ from what the proposal
    // was made against, the kernel refuses the write.
    if (e.contentChanges.length === 0 || !e.document.isDirty) return;
    const uri = e.document.uri.toString();
    const targets = [...this.pending.values()].filter((p) => !p.isNew && p.fileUri.toString() === uri);
    for (const p of targets) p.one.settle({ decision: "deny", reason: typedWhilePendingReason(p.file) });
  }

  /** The chat card's button: the proposal's editor takes the focus, its cursor on the first hunk. */
  private async reveal(callId: string): Promise<void> {
    const p = this.pending.get(callId);
    if (!p) {
      void vscode.window.showInformationMessage("Hearth: this proposed change was already decided (or its turn ended).");
      return;
    }
    const editor = await vscode.window.showTextDocument(p.shownIn, { preview: true, preserveFocus: false });
    const at = new vscode.Position(Math.min(p.view?.hunkStarts[0] ?? 0, editor.document.lineCount - 1), 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async showDiff(callId: string): Promise<void> {
    const p = this.pending.get(callId);
    if (!p) return;
    const left = p.isNew ? this.proposed.add(p.file, "") : p.fileUri;
    const right = this.proposed.add(p.file, p.newContent);
    p.documents.push(right, ...(p.isNew ? [left] : []));
    p.diffSides.add(right.toString());
    // Its own tab (not the preview slot), so the pending file with its lenses stays open beside it.
    await vscode.commands.executeCommand("vscode.diff", left, right, `${p.file} (proposed by Hearth)`, { preview: false });
  }

  private draw(editor: vscode.TextEditor): void {
    const uri = editor.document.uri.toString();
    const p = [...this.pending.values()].find((x) => x.shownIn.toString() === uri);
    if (!p) return;
    if (p.view) this.decorations.showView(editor, p.view, p.hunks);
    else this.decorations.showNewFile(editor);
  }

  /** Answered, by anyone: the lenses and drawings go, and the proposal's documents are dropped. */
  private settled(callId: string, answer: Answer): void {
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    this.watcher?.decided(callId);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() === p.shownIn.toString()) this.decorations.clear(editor);
    }
    this.closeTabs(p, answer);
    for (const uri of p.documents) this.proposed.remove(uri);
    this.lensesChanged.fire();
    this.updateContext();
    this.log.debug(`edit proposal ${callId} for ${p.file} answered; ${this.proposed.size} proposed documents remain`);
  }
}

/** The file's text as it is on disk, or null when it does not exist. */
async function readText(uri: vscode.Uri): Promise<string | null> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === "FileNotFound") return null;
    throw e;
  }
}

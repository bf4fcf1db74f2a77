// "Undo these edits" on each turn that wrote files (issue 14 item 5). The panel sits at the end of the
// assistant reply that holds the turn's last write call; the transcript may be redrawn at any time
// (a reload, another session), so panels are placed again whenever it changes. Undo is a person's
// action: the first click only asks, naming each file and what will happen to it; the second sends.
import type { TurnEdits, UndoFileOutcome } from "../shared/protocol/undo.js";
import type { ToWebview } from "../shared/protocol/webview.js";
import { button, setEnabled } from "./components/index.js";
import { el } from "./dom.js";
import { TranscriptDecorations } from "./transcriptDecorations.js";

/** "restore app.txt", "remove new.txt": what an undo would do to a file. */
export function plannedAction(file: TurnEdits["files"][number]): string {
  return `${file.change === "created" ? "remove" : "restore"} ${file.path}`;
}

export class UndoButtons extends TranscriptDecorations {
  private turns: TurnEdits[] = [];
  private readonly panels = new Map<string, HTMLElement>();
  hear(message: ToWebview): boolean {
    switch (message.type) {
      case "edits/turns":
        this.show(message.turns);
        return true;
      case "edits/result":
        this.result(message.turnId, message.files, message.error);
        return true;
      case "chat/transcript":
        this.send({ type: "edits/refresh" });
        return false;
      case "chat/event":
        if (message.event.type === "completed") this.send({ type: "edits/refresh" });
        return false;
      default:
        return false;
    }
  }

  private show(turns: TurnEdits[]): void {
    this.turns = turns;
    for (const [turnId, panel] of this.panels) {
      const turn = turns.find((t) => t.turnId === turnId);
      if (!turn) {
        panel.remove();
        this.panels.delete(turnId);
      } else this.renderState(panel, turn);
    }
    this.place();
  }

  /** Puts each turn's panel at the end of the reply holding its last write call shown. */
  protected place(): void {
    for (const turn of this.turns) {
      const call = [...turn.callIds]
        .reverse()
        .map((id) => this.transcript.querySelector<HTMLElement>(`.tool-call[data-call-id="${CSS.escape(id)}"]`))
        .find((c) => c !== null);
      const reply = call?.closest<HTMLElement>(".msg.assistant");
      if (!reply) continue;
      let panel = this.panels.get(turn.turnId);
      if (!panel) {
        panel = el("div", "turn-undo");
        panel.dataset.testid = "turn-undo";
        panel.dataset.turnId = turn.turnId;
        this.panels.set(turn.turnId, panel);
        this.renderState(panel, turn);
      }
      if (panel.parentElement !== reply || reply.lastElementChild !== panel) {
        reply.append(panel);
        // The latest turn's offer is shown; older turns' (a reloaded history) leave the scroll alone.
        if (reply === this.transcript.lastElementChild) panel.scrollIntoView({ block: "nearest" });
      }
    }
  }

  /** The button (or "undone"), keeping the last outcomes shown under it. */
  private renderState(panel: HTMLElement, turn: TurnEdits): void {
    const open = turn.files.filter((f) => !f.undone);
    const head = el("div", "undo-head");
    if (open.length === 0) {
      head.append(el("span", "undo-done", "Edits undone"));
      head.dataset.testid = "undo-done";
    } else {
      const b = button("Undo these edits", () => this.confirm(panel, turn), {
        secondary: true,
        testId: "undo-edits",
        ariaLabel: `Undo the edits of this turn to ${open.length} file(s)`,
      });
      head.append(b, el("span", "undo-files", open.map((f) => f.path).join(", ")));
    }
    panel.querySelector(".undo-head, .undo-confirm")?.remove();
    panel.prepend(head);
  }

  /** The second step: what will happen to each file, then Undo edits / Cancel. */
  private confirm(panel: HTMLElement, turn: TurnEdits): void {
    const box = el("div", "undo-confirm");
    box.dataset.testid = "undo-confirm";
    box.setAttribute("role", "group");
    box.append(el("div", "undo-question", "Undo this turn's edits? Files changed since the turn are left as they are."));
    const list = el("ul", "undo-plan");
    for (const f of turn.files.filter((x) => !x.undone)) {
      const item = el("li", undefined, f.notUndoable ? `${f.path}: cannot be undone (${f.notUndoable})` : plannedAction(f));
      list.append(item);
    }
    const go = button(
      "Undo edits",
      () => {
        box.querySelectorAll<HTMLElement>("vscode-button").forEach((x) => setEnabled(x, false));
        box.append(el("div", "undo-running", "Undoing…"));
        this.send({ type: "edits/undo", turnId: turn.turnId });
      },
      { testId: "undo-confirm-go" },
    );
    const cancel = button("Cancel", () => this.renderState(panel, turn), { secondary: true, testId: "undo-confirm-cancel" });
    const buttons = el("div", "undo-buttons");
    buttons.append(go, cancel);
    box.append(list, buttons);
    panel.querySelector(".undo-head, .undo-confirm")?.replaceWith(box);
  }

  private result(turnId: string, files: UndoFileOutcome[], error: string | undefined): void {
    const panel = this.panels.get(turnId);
    if (!panel) return;
    panel.querySelector(".undo-result")?.remove();
    const out = el("ul", "undo-result");
    out.dataset.testid = "undo-result";
    if (error) out.append(el("li", "undo-outcome refused", error));
    for (const f of files) {
      const item = el("li", `undo-outcome ${f.outcome}`, `${f.outcome === "refused" ? "✗" : "✓"} ${f.message}`);
      item.dataset.testid = "undo-outcome";
      item.dataset.outcome = f.outcome;
      item.dataset.path = f.path;
      out.append(item);
    }
    panel.append(out);
    out.scrollIntoView({ block: "nearest" });
    const turn = this.turns.find((t) => t.turnId === turnId);
    if (turn) this.renderState(panel, turn); // the refreshed state follows in edits/turns
  }
}

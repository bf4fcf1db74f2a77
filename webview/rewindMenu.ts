// Rewind in the chat (issue 29 item 1). Each user message of the shown history gets a Rewind button
// (and a Fork one, item 2: the extension opens the fork and its message comes back to the box);
// the first click asks the kernel for a preview and shows the three choices with what each would do;
// only a click on one of them acts. The messages an active rewind took out of the model's view are
// folded under a "Rewound" head with Show and Undo. The transcript may be redrawn at any time, so
// everything is placed again whenever it changes (as the undo buttons are).
import type { RewindFileOutcome, RewindPreview, RewindRecord } from "../shared/protocol/rewind.js";
import type { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { button, setEnabled } from "./components/index.js";
import { codeText } from "./codeText.js";
import { el } from "./dom.js";
import { plainKernelText } from "./kernelWords.js";
import { TranscriptDecorations } from "./transcriptDecorations.js";
import { rewindChoices, rewoundText } from "./rewindText.js";

type Result = { files: RewindFileOutcome[]; error?: string };

export class RewindMenus extends TranscriptDecorations {
  private rewinds: RewindRecord[] = [];
  /** The last outcome shown at a message's seq, kept across redraws. */
  private readonly results = new Map<number, Result>();
  private readonly opened = new Set<string>();
  private sessionId: string | null = null;
  /** The message of the rewind in flight, when it takes the conversation back: it returns to the box. */
  private readonly pendingText = new Map<number, string>();

  constructor(
    transcript: HTMLElement,
    send: (message: FromWebview) => void,
    /** A rewind of the conversation succeeded: its message goes back into an empty message box, to edit and send again. */
    private readonly onRewound: (text: string) => void,
  ) {
    super(transcript, send);
  }
  hear(message: ToWebview): boolean {
    switch (message.type) {
      case "rewind/list":
        this.rewinds = message.rewinds;
        this.number(message.userSeqs);
        this.place();
        return true;
      case "rewind/preview":
        this.menu(message.toSeq, message.preview, message.error);
        return true;
      case "rewind/result": {
        const seq = message.toSeq ?? this.rewinds.find((r) => r.rewindId === message.rewindId)?.fromSeq;
        if (seq !== undefined) this.results.set(seq, { files: message.files, error: message.error });
        const text = message.toSeq === undefined ? undefined : this.pendingText.get(message.toSeq);
        if (message.toSeq !== undefined) this.pendingText.delete(message.toSeq);
        if (text !== undefined && !message.error) this.onRewound(text);
        this.userNode(seq)?.querySelector(".rewind-menu")?.remove();
        this.place();
        return true;
      }
      case "fork/result":
        // Success comes after the fork's transcript: the chat is the fork, its message goes to the box.
        if (message.draft !== undefined) this.onRewound(message.draft);
        if (message.error) {
          this.results.set(message.atSeq, { files: [], error: message.error });
          this.place();
        }
        return true;
      case "chat/event":
        if (message.event.type === "completed") this.send({ type: "rewind/refresh" });
        return false;
      case "chat/transcript":
        // A redraw after a rewind keeps its outcome in view; another chat's history does not show it.
        if (message.sessionId !== this.sessionId) this.results.clear();
        this.sessionId = message.sessionId;
        this.send({ type: "rewind/refresh" });
        return false;
      default:
        return false;
    }
  }

  /**
   * Gives the user messages drawn live their seqs: the view shows the latest messages, so its user
   * messages and the session's latest user seqs line up from the end.
   */
  private number(userSeqs: readonly number[]): void {
    const nodes = [...this.transcript.querySelectorAll<HTMLElement>(".msg.user")];
    for (let i = 1; i <= Math.min(nodes.length, userSeqs.length); i++) {
      const node = nodes[nodes.length - i]!;
      const seq = String(userSeqs[userSeqs.length - i]);
      if (node.dataset.seq === undefined) node.dataset.seq = seq;
      else if (node.dataset.seq !== seq) return; // the view is not the latest of the session: leave it
    }
  }

  private userNode(seq: number | undefined): HTMLElement | null {
    return seq === undefined ? null : this.transcript.querySelector<HTMLElement>(`.msg.user[data-seq="${seq}"]`);
  }

  protected place(): void {
    for (const node of this.transcript.querySelectorAll<HTMLElement>(".msg.user[data-seq]")) {
      if (node.querySelector(":scope > .rewind-open")) continue;
      const seq = Number(node.dataset.seq);
      const open = button("Rewind", () => this.send({ type: "rewind/preview", toSeq: seq }), {
        secondary: true,
        testId: "rewind-open",
        ariaLabel: "Rewind to this message: the conversation, the files or both",
      });
      open.classList.add("rewind-open");
      // issue 29 item 2: a new chat with the history before this message, the message in its box.
      const fork = button("Fork", () => this.send({ type: "fork/go", atSeq: seq }), {
        secondary: true,
        testId: "fork-open",
        ariaLabel: "Fork: a new chat with the history before this message, and this message to edit and send",
      });
      fork.classList.add("fork-open");
      // The same history, worked on in the background while this chat goes on.
      const task = button(
        "Fork as task",
        () => {
          const text = node.querySelector(":scope > .body")?.textContent?.trim();
          if (text) this.send({ type: "fork/task", atSeq: seq, text });
        },
        {
          secondary: true,
          testId: "fork-task",
          ariaLabel: "Fork as task: a background task with the history before this message, doing what it says",
        },
      );
      task.classList.add("fork-open");
      node.append(open, fork, task);
    }
    // A redraw may come before the list that says a rewind was undone: what is no longer active unfolds.
    const active = this.rewinds.filter((r) => r.scope !== "files" && !r.undoneAt);
    for (const head of this.transcript.querySelectorAll<HTMLElement>(".rewound-head"))
      if (!active.some((r) => r.rewindId === head.dataset.rewindId)) head.remove();
    for (const n of this.transcript.querySelectorAll<HTMLElement>(".rewound, .rewound-shown"))
      n.classList.remove("rewound", "rewound-shown");
    for (const r of active) this.fold(r);
    for (const [seq, result] of this.results) this.showResult(seq, result);
  }

  /** Marks the rewound messages (the user message at fromSeq through the last message then) and heads them. */
  private fold(r: RewindRecord): void {
    const first = this.userNode(r.fromSeq);
    if (!first) return;
    const nodes: HTMLElement[] = [];
    for (let n: Element | null = first; n; n = n.nextElementSibling) {
      if (!(n instanceof HTMLElement) || n.classList.contains("rewound-head")) continue;
      // The first message after the range (or a live turn, which has no seq yet) ends it.
      if (n !== first && n.classList.contains("msg") && n.classList.contains("user") && !(Number(n.dataset.seq) <= r.throughSeq)) break;
      nodes.push(n);
    }
    const shown = this.opened.has(r.rewindId);
    for (const n of nodes) n.classList.toggle("rewound", !shown);
    for (const n of nodes) n.classList.toggle("rewound-shown", shown);
    let head = this.transcript.querySelector<HTMLElement>(`.rewound-head[data-rewind-id="${CSS.escape(r.rewindId)}"]`);
    if (head && head.nextElementSibling === first) return;
    head?.remove();
    head = el("div", "rewound-head", undefined, "rewound-head");
    head.dataset.rewindId = r.rewindId;
    const toggle = button(
      shown ? "Hide" : "Show",
      () => {
        if (this.opened.has(r.rewindId)) this.opened.delete(r.rewindId);
        else this.opened.add(r.rewindId);
        head?.remove();
        this.place();
      },
      { secondary: true, testId: "rewound-toggle" },
    );
    const undo = button(
      "Undo rewind",
      () => {
        setEnabled(undo, false);
        this.send({ type: "rewind/undo", rewindId: r.rewindId });
      },
      { secondary: true, testId: "rewind-undo" },
    );
    head.append(el("span", "rewound-text", rewoundText(r, nodes.filter((n) => n.classList.contains("user")).length)), toggle, undo);
    first.before(head);
  }

  /** The choices with their previews, under the message; a choice sends, Cancel closes. */
  private menu(toSeq: number, preview: RewindPreview | undefined, error: string | undefined): void {
    const node = this.userNode(toSeq);
    if (!node) return;
    node.querySelector(".rewind-menu")?.remove();
    const box = el("div", "rewind-menu", undefined, "rewind-menu");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Rewind to this message");
    if (error || !preview) box.append(codeText(el("div", "rewind-error"), plainKernelText(error ?? "No preview came back.")));
    for (const choice of preview ? rewindChoices(preview) : []) {
      const row = el("div", "rewind-choice");
      row.dataset.scope = choice.scope;
      const go = button(
        choice.label,
        () => {
          box.querySelectorAll<HTMLElement>("vscode-button").forEach((b) => setEnabled(b, false));
          box.append(el("div", "rewind-running", "Rewinding…"));
          if (choice.scope !== "files") this.pendingText.set(toSeq, node.querySelector(":scope > .body")?.textContent ?? "");
          this.send({ type: "rewind/go", toSeq, scope: choice.scope });
        },
        { testId: `rewind-${choice.scope}` },
      );
      if (choice.disabled) setEnabled(go, false);
      const list = el("ul", "rewind-plan");
      // The kernel quotes file names in backticks: drawn as code (issue 25 item 11).
      for (const line of choice.disabled ? [choice.disabled] : choice.lines) list.append(codeText(el("li"), line));
      row.append(go, list);
      box.append(row);
    }
    box.append(button("Cancel", () => box.remove(), { secondary: true, testId: "rewind-cancel" }));
    node.append(box);
    box.scrollIntoView({ block: "nearest" });
  }

  private showResult(seq: number, result: Result): void {
    const node = this.userNode(seq);
    const head = node?.previousElementSibling?.classList.contains("rewound-head") ? node.previousElementSibling : null;
    const host = head ?? node;
    if (!host || host.querySelector(":scope > .rewind-result")) return;
    const out = el("ul", "rewind-result", undefined, "rewind-result");
    if (result.error) out.append(codeText(el("li", "rewind-outcome refused"), plainKernelText(result.error)));
    for (const f of result.files) {
      const item = codeText(
        el("li", `rewind-outcome ${f.outcome}`, undefined, "rewind-outcome"),
        `${f.outcome === "refused" ? "✗" : "✓"} ${f.message}`,
      );
      item.dataset.outcome = f.outcome;
      item.dataset.path = f.path;
      out.append(item);
    }
    if (out.childElementCount > 0) host.append(out);
  }
}

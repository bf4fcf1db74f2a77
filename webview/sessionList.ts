// Past chats (issue 15 item 2): title, when, model, state; reopen, rename, delete (hides it from the
// list: the journal keeps it), erase (removes its messages for good, after a confirmation), and search by title. The list comes from the kernel (session/list).
import { modelDisplayName } from "../shared/protocol/modelView.js";
import type { SessionSummary } from "../shared/protocol/records.js";
import { iconButton, textField } from "./components/index.js";
import { codeText } from "./codeText.js";
import { el } from "./dom.js";
import { plainKernelText } from "./kernelWords.js";

export interface SessionActions {
  open(sessionId: string): void;
  rename(sessionId: string, title: string): void;
  hide(sessionId: string): void;
  /** Erase for good (the extension asks for confirmation first). */
  erase(sessionId: string): void;
}

function when(iso: string): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
}

export class SessionList {
  readonly node = el("section", "session-list", undefined, "session-list");
  private readonly search = textField("Search chats by title", { id: "session-search", placeholder: "Search by title" });
  private readonly list = el("ul", "sessions");
  /** What became of the list's last action (refused, erased): the transcript, where notices go, is hidden meanwhile. */
  private readonly status = el("div", "notice", undefined, "session-notice");
  private sessions: SessionSummary[] = [];
  private current: string | null = null;
  /** A rename in progress: a list that arrives meanwhile waits, so the person's typing is not lost. */
  private renaming = false;

  constructor(private readonly actions: SessionActions) {
    this.node.hidden = true;
    this.node.setAttribute("aria-label", "Past chats");
    this.search.el.addEventListener("input", () => this.render());
    this.status.hidden = true;
    this.node.append(el("h2", undefined, "Past chats"), this.status, this.search.el, this.list);
  }

  get open(): boolean {
    return !this.node.hidden;
  }

  toggle(open: boolean): void {
    this.node.hidden = !open;
    this.status.hidden = true;
    if (open) this.search.el.focus();
  }

  /** A notice that arrives while the list is open is shown here too (the transcript is hidden under it). */
  notice(level: "info" | "error", message: string): void {
    this.status.className = `notice ${level}`;
    codeText(this.status, plainKernelText(message));
    this.status.hidden = false;
    // The list may be scrolled to the row acted on: bring the answer to it into view.
    this.status.scrollIntoView({ block: "nearest" });
  }

  show(sessions: SessionSummary[], currentSessionId: string | null): void {
    // Background tasks are leaf sessions with their own view; the history lists chats.
    this.sessions = sessions.filter((s) => s.role === "coordinator");
    this.current = currentSessionId;
    if (!this.renaming) this.render();
  }

  private render(): void {
    this.renaming = false;
    const query = this.search.value().trim().toLowerCase();
    const shown = this.sessions.filter((s) => !query || s.title.toLowerCase().includes(query));
    if (shown.length === 0) {
      this.list.replaceChildren(el("li", "empty", query ? `No chat's title contains "${query}".` : "No past chats yet.", "sessions-empty"));
      return;
    }
    this.list.replaceChildren(...shown.map((s) => this.row(s)));
  }

  private row(s: SessionSummary): HTMLElement {
    const row = el("li", "session-row", undefined, "session-row");
    row.dataset.sessionId = s.sessionId;
    if (s.sessionId === this.current) row.setAttribute("aria-current", "true");
    const title = s.title || "Untitled chat";
    const openButton = el("button", "session-open");
    (openButton as HTMLButtonElement).type = "button";
    openButton.dataset.testid = "session-open";
    openButton.append(el("span", "session-title", title, "session-title"));
    // issue 29 item 2: a fork says where it came from.
    const origin = s.forkedFrom ? ` · forked from "${s.forkedFrom.title || "Untitled chat"}" at #${s.forkedFrom.atSeq}` : "";
    const facts = `${when(s.updatedAt)} · ${modelDisplayName(s.model)} · ${s.activeTurnId ? "running" : "idle"}${origin}`;
    openButton.append(el("span", "session-facts", facts, "session-facts"));
    openButton.setAttribute("aria-label", `Open chat "${title}", ${facts}`);
    openButton.addEventListener("click", () => this.actions.open(s.sessionId));
    // Compact icon buttons (issue 25 item 11): their names, said and shown as tooltips, are the labels.
    const rename = iconButton("edit", `Rename chat "${title}"`, () => this.startRename(row, s), { testId: "session-rename" });
    const hide = iconButton(
      "eye-closed",
      `Hide chat "${title}" from this list (Hearth's journal keeps it)`,
      () => this.actions.hide(s.sessionId),
      {
        testId: "session-hide",
      },
    );
    const erase = iconButton(
      "trash",
      `Erase chat "${title}" for good: its messages are removed from Hearth's journal (asks first)`,
      () => this.actions.erase(s.sessionId),
      { testId: "session-erase" },
    );
    row.append(openButton, rename, hide, erase);
    return row;
  }

  /** Inline rename: Enter saves, Escape cancels. */
  private startRename(row: HTMLElement, s: SessionSummary): void {
    const input = document.createElement("input");
    input.type = "text";
    input.className = "session-rename-input";
    input.dataset.testid = "session-rename-input";
    input.value = s.title;
    input.maxLength = 200;
    input.setAttribute("aria-label", "New title (Enter saves, Escape cancels)");
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && input.value.trim()) {
        e.preventDefault();
        // The list the kernel sends back after the rename shows the new title.
        this.renaming = false;
        this.actions.rename(s.sessionId, input.value.trim());
      } else if (e.key === "Escape") {
        e.preventDefault();
        this.render();
      }
    });
    this.renaming = true;
    input.addEventListener("blur", () => {
      if (this.renaming) this.render();
    });
    row.replaceChildren(input);
    input.focus();
    input.select();
  }
}

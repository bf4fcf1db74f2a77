// The top of the chat (issue 15 item 4): what matters to a person chatting. The model and its state
// (the model panel), this chat's title and model, how full its context is with Compact, the history
// list's button, and the kernel only when it needs attention; its version, folder, journal and
// Restart are under the Kernel menu. It is one line that never breaks (issue 25 item 7): its texts
// are cut short with their whole in a tooltip, its buttons are icons, and problems (the model's, the
// kernel's) take full-width lines below it.
import { modelDisplayName } from "../shared/protocol/modelView.js";
import type { ContextFill, SessionSummary } from "../shared/protocol/records.js";
import type { ToWebview } from "../shared/protocol/webview.js";
import { button, iconButton, setEnabled, spinner } from "./components/index.js";
import { errorActions, type ViewActions } from "./errorActions.js";
import { contextMeter } from "./turnFooter.js";
import { el } from "./dom.js";

type KernelMessage = Extract<ToWebview, { type: `kernel/${string}` }>;

export interface HeaderActions extends ViewActions {
  toggleHistory(): void;
}

export class ChatHeader {
  readonly node = el("header", "chat-header");
  /** The model panel renders here (modelPanel.ts). */
  readonly modelSlot = el("div", "model-panel");
  /** A model's error and what to do about it (modelPanel.ts), below the header's line. */
  readonly modelProblem = el("div", "model-problem");
  private readonly chatLine = el("div", "chat-line");
  private readonly kernelProblem = el("div", "kernel-problem");
  private readonly menu = el("details", "kernel-menu", undefined, "kernel-menu");
  private readonly compactButton: HTMLElement;
  private readonly historyButton: HTMLElement;
  private session: SessionSummary | undefined;
  private context: ContextFill | undefined;
  private modelSetting = "";
  private busy = false;

  constructor(private readonly actions: HeaderActions) {
    this.compactButton = iconButton("fold", "Compact this chat", actions.compact, { id: "compact" });
    this.historyButton = iconButton("history", "History", actions.toggleHistory, { id: "history" });
    this.historyButton.setAttribute("aria-expanded", "false");
    // One line: the model, this chat (title, context), then Compact, History and the Kernel menu.
    const row = el("div", "chat-row");
    const tools = el("div", "header-tools");
    tools.append(this.compactButton, this.historyButton, this.menu);
    row.append(this.modelSlot, this.chatLine, tools);
    this.node.append(row, this.modelProblem, this.kernelProblem);
    this.kernel({ type: "kernel/starting" });
    this.renderChatLine();
  }

  setHistoryOpen(open: boolean): void {
    this.historyButton.setAttribute("aria-expanded", String(open));
  }

  /** The current chat (none: a new chat, not created until its first message). */
  setSession(session: SessionSummary | undefined): void {
    if (session?.sessionId !== this.session?.sessionId) this.context = undefined;
    this.session = session;
    this.renderChatLine();
  }

  setContext(context: ContextFill): void {
    this.context = context;
    this.renderChatLine();
  }

  setModelSetting(setting: string): void {
    this.modelSetting = setting;
    this.renderChatLine();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    setEnabled(this.compactButton, !busy && this.session !== undefined);
  }

  kernel(message: KernelMessage): void {
    const state = message.type.replace("kernel/", "");
    this.node.dataset.kernel = state;
    this.kernelProblem.replaceChildren();
    this.kernelProblem.removeAttribute("role");
    switch (message.type) {
      case "kernel/starting":
        this.kernelProblem.append(spinner("Starting the kernel"), el("span", undefined, "Starting the kernel…", "kernel-status"));
        break;
      case "kernel/restarting":
        this.kernelProblem.setAttribute("role", "alert");
        this.kernelProblem.append(
          el("p", undefined, `The kernel stopped; restarting it in ${(message.delayMs / 1000).toFixed(1)} s.`, "kernel-status"),
          el("p", "error-text", message.reason, "kernel-error"),
          errorActions("kernel", this.actions),
        );
        break;
      case "kernel/error":
        this.kernelProblem.setAttribute("role", "alert");
        this.kernelProblem.append(el("p", "error-text", message.message, "kernel-error"), errorActions("kernel", this.actions));
        break;
      case "kernel/ready":
        if (message.differences?.length) {
          // What runs is not what the settings say (another client started the kernel with its own
          // environment, or a setting changed since this one started): say so, never silently.
          const warning = el("div", "kernel-differences", undefined, "kernel-differences");
          const pid = message.info.kernelPid;
          warning.append(
            el(
              "p",
              undefined,
              message.joined
                ? `This window joined the kernel (pid ${pid}) another client started; its settings differ from this window's:`
                : `The kernel (pid ${pid}) runs with other settings than this window's now:`,
            ),
            ...message.differences.map((d) => el("p", undefined, d)),
            button("Restart with this window's settings", this.actions.restartKernel, { id: "restart-with-settings" }),
          );
          this.kernelProblem.append(warning);
        }
        break;
    }
    this.renderMenu(message);
  }

  /** The Kernel menu: its state, version, folder, journal and process, and Restart. */
  private renderMenu(message: KernelMessage): void {
    const open = this.menu.hasAttribute("open");
    // An icon like the header's other buttons; its name is its tooltip.
    const summary = el("summary", "codicon codicon-server-process");
    summary.title = "Kernel";
    summary.setAttribute("aria-label", "Kernel");
    const body = el("div", "kernel-menu-body");
    const list = el("dl");
    const field = (term: string, value: string, testId: string): void =>
      void list.append(el("dt", undefined, term), el("dd", undefined, value, testId));
    if (message.type === "kernel/ready") {
      const { info } = message;
      body.append(el("p", undefined, `The kernel ${info.kernelVersion} is ready.`, "kernel-ready"));
      field("Kernel version", info.kernelVersion, "kernel-version");
      field("Protocol", String(info.protocolVersion), "protocol-version");
      field("Workspace", info.workspaceRoot, "workspace-root");
      field("Journal", info.journalPath, "journal-path");
      field("Process", `pid ${info.kernelPid}${message.joined ? ", started by another client" : ""}`, "kernel-pid");
      body.append(list);
    } else body.append(el("p", undefined, message.type === "kernel/error" ? "The kernel is not running." : "The kernel is starting."));
    body.append(
      button("Restart kernel", this.actions.restartKernel, { id: "restart", secondary: true }),
      button("Open the log", this.actions.showLog, { secondary: true, id: "show-log" }),
    );
    this.menu.replaceChildren(summary, body);
    this.menu.toggleAttribute("open", open);
  }

  /** This chat: its title, its model when new chats would use another, its context fill and Compact. */
  private renderChatLine(): void {
    const parts: HTMLElement[] = [];
    const title = el("span", "chat-title", this.session ? this.session.title || "Untitled chat" : "New chat", "chat-title");
    title.title = title.textContent ?? "";
    parts.push(title);
    if (this.session && this.modelSetting && this.session.model !== this.modelSetting) {
      // A chat keeps the model it was created with; a changed setting applies to new chats. The title
      // comes first: short of room the note gives way to its icon (its words in the tooltip).
      const words = `uses ${modelDisplayName(this.session.model)}; new chats use ${modelDisplayName(this.modelSetting)}`;
      const note = el("span", "session-model", undefined, "session-model");
      note.append(el("span", "codicon codicon-info"), el("span", "session-model-text", words));
      note.title = `This chat ${words}`;
      note.setAttribute("aria-label", note.title);
      parts.push(note);
    }
    if (this.context) parts.push(contextMeter(this.context, "header-context"));
    this.chatLine.replaceChildren(...parts);
    setEnabled(this.compactButton, !this.busy && this.session !== undefined);
  }
}

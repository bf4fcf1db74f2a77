// The chat view in the activity bar: the kernel's state in a header and the chat itself, whose
// state lives in the ChatController (it outlives the webview, which VS Code disposes when hidden).
// Resolving the view is the kernel's first use: it starts here, not at activation.
import * as vscode from "vscode";
import { errorMessage } from "../../shared/errors.js";
import { DisposableStore } from "../../shared/lifecycle.js";
import { FromWebview, ToWebview } from "../../shared/protocol/webview.js";
import type { ChatApprovals } from "../approvals/chatApprovals.js";
import type { KernelState, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import type { ModelViewPort } from "../model/wireModels.js";
import type { TurnUndo } from "../edits/turnUndo.js";
import { EDIT_COMMANDS } from "../edits/editCommands.js";
import type { SessionRewind } from "./sessionRewind.js";
import type { ChatController } from "./chatController.js";
import type { ChatInstructions } from "./chatInstructions.js";
import type { ChatModes } from "./chatModes.js";
import type { ChatPrompts } from "./chatPrompts.js";
import { applyCode, ChatSessions, copyCode, insertCode } from "./chatViewActions.js";
import { chatHtml, resourceRoots } from "./chatHtml.js";
import { requestContext } from "./contextPicker.js";
import type { TerminalHistory } from "../context/terminalHistory.js";

const NO_FOLDER =
  "Hearth works on a folder: open one (File › Open Folder…) and its kernel starts here. " +
  "The kernel's tools and journal are anchored at that folder.";

export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewType = "hearth.chatView";
  /** The page that said `ready` (none while the view is gone or still loading). */
  private readyWebview: vscode.Webview | undefined;
  /** The focus command ran before the page was ready: the box takes the focus once it is. */
  private focusWhenReady = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly kernel: KernelSupervisor | undefined,
    private readonly chat: ChatController | undefined,
    private readonly log: vscode.LogOutputChannel,
    private readonly approvals?: ChatApprovals,
    private readonly models?: ModelViewPort,
    private readonly undo?: TurnUndo,
    private readonly instructions?: ChatInstructions,
    private readonly rewind?: SessionRewind,
    private readonly modes?: ChatModes,
    private readonly prompts?: ChatPrompts,
    /** Each terminal's last command, for @terminal (issue 29 item 3). */
    private readonly terminals?: TerminalHistory,
  ) {}

  /** The focus command (Ctrl+Alt+H): shows the view and puts the focus in its message box (issue 25 item 5). */
  async focusComposer(): Promise<void> {
    this.focusWhenReady = true;
    await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
    if (!this.readyWebview) return;
    this.focusWhenReady = false;
    this.post(this.readyWebview, { type: "chat/focus" });
  }

  /** The running MCP servers' resources for the @ picker, as trusted as this window's folder. */
  private async mcpResources() {
    try {
      const client = await this.kernel!.ensureStarted();
      return await client.request("mcp/resources", { readOnly: !vscode.workspace.isTrusted });
    } catch (e) {
      const error = errorMessage(e);
      this.log.warn(`mcp: could not list the resources: ${error}`);
      return { error };
    }
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const { webview } = view;
    webview.options = { enableScripts: true, localResourceRoots: resourceRoots(this.extensionUri) };
    webview.html = chatHtml(webview, this.extensionUri);
    const post = (message: ToWebview): void => this.post(webview, message);
    const subscriptions = new DisposableStore();
    subscriptions.add(webview.onDidReceiveMessage((raw: unknown) => this.onMessage(webview, raw)));
    if (this.kernel) subscriptions.add(this.kernel.onState((state) => post(stateMessage(state))));
    // Trusting the folder lifts Restricted Mode at once: the next turn is offered every tool.
    subscriptions.add(vscode.workspace.onDidGrantWorkspaceTrust(() => post({ type: "workspace/trust", restricted: false })));
    this.chat?.attach(post);
    this.models?.attach(post);
    this.undo?.attach(post);
    this.instructions?.attach(post);
    this.rewind?.attach(post);
    this.modes?.attach(post);
    this.prompts?.attach(post);
    this.approvals?.attach({ post, visible: () => view.visible });
    view.onDidDispose(() => {
      subscriptions.dispose();
      if (this.readyWebview === webview) this.readyWebview = undefined;
      this.chat?.attach(undefined);
      this.models?.attach(undefined);
      this.undo?.attach(undefined);
      this.instructions?.attach(undefined);
      this.rewind?.attach(undefined);
      this.modes?.attach(undefined);
      this.prompts?.attach(undefined);
      this.approvals?.attach(undefined);
    });
    // Failures reach the view through the state listener and the log; nothing to do with them here.
    this.kernel?.ensureStarted().catch(() => undefined);
  }

  private onMessage(webview: vscode.Webview, raw: unknown): void {
    const parsed = FromWebview.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored a malformed message from the chat view: ${parsed.error.message}`);
      return;
    }
    const message = parsed.data;
    if (message.type === "workspace/manageTrust") {
      void vscode.commands.executeCommand("workbench.trust.manage");
      return;
    }
    // An error's action (select a model, open the log) works with or without a folder.
    if (message.type === "command/run") {
      void vscode.commands.executeCommand(message.command);
      return;
    }
    if (message.type === "code/copy") {
      void copyCode(message.text);
      return;
    }
    if (message.type === "code/insert") {
      void insertCode(message.text, (m) => this.post(webview, m));
      return;
    }
    // Refused with its reason when no folder is open (the chat controller exists only with one).
    if (message.type === "code/apply") {
      void applyCode(message.text, message.file, this.chat, (m) => this.post(webview, m));
      return;
    }
    if (message.type === "ready") {
      this.readyWebview = webview;
      if (this.focusWhenReady) {
        this.focusWhenReady = false;
        this.post(webview, { type: "chat/focus" });
      }
      this.models?.show();
      this.post(webview, { type: "workspace/trust", restricted: !vscode.workspace.isTrusted });
      this.post(webview, this.kernel ? stateMessage(this.kernel.state) : { type: "kernel/error", message: NO_FOLDER });
      // Cards of requests still waiting come after the transcript they belong to.
      void this.chat?.showTranscript().then(() => this.approvals?.replay());
      return;
    }
    if (!this.kernel || !this.chat) {
      this.post(webview, { type: "kernel/error", message: NO_FOLDER });
      return;
    }
    switch (message.type) {
      case "kernel/restart":
        this.kernel.restart().catch(() => undefined);
        return;
      case "chat/send":
        void this.chat.send(message.text, message.attachments, message.mode);
        return;
      case "context/request":
        void requestContext(message.what, (m) => this.post(webview, m), {
          resources: () => this.mcpResources(),
          terminals: this.terminals,
        });
        return;
      case "chat/stop":
        void this.chat.stop();
        return;
      case "chat/new":
        void this.chat.newChat();
        return;
      case "chat/background":
        void vscode.commands.executeCommand("hearth.startTask", message.text);
        return;
      case "chat/compact":
        void this.chat.compact();
        return;
      case "chat/continueInNewChat":
        void this.chat.continueInNewChat();
        return;
      case "chat/keepChatModel":
        void this.chat.keepChatModel();
        return;
      case "chat/keepChatTools":
        void this.chat.chooseEarlierTools();
        return;
      case "chat/older":
        void this.chat.loadOlder(message.sessionId, message.beforeSeq);
        return;
      case "chat/latest":
        void this.chat.showTranscript();
        return;
      case "session/list":
        void new ChatSessions(this.kernel, this.chat).list((m) => this.post(webview, m));
        return;
      case "session/open":
        void this.chat.openSession(message.sessionId);
        return;
      case "session/rename":
        void new ChatSessions(this.kernel, this.chat).rename(message.sessionId, message.title, (m) => this.post(webview, m));
        return;
      case "session/erase":
        void new ChatSessions(this.kernel, this.chat).erase(message.sessionId, (m) => this.post(webview, m));
        return;
      case "session/hide":
        void new ChatSessions(this.kernel, this.chat).hide(message.sessionId, (m) => this.post(webview, m));
        return;
      case "model/use":
      case "model/useServer":
      case "model/cancel":
      case "model/pick":
      case "model/setApiKey":
        this.models?.onMessage(message);
        return;
      case "edits/refresh":
        void this.undo?.refresh();
        return;
      case "edits/undo":
        void this.undo?.undo(message.turnId);
        return;
      case "modes/refresh":
        void this.modes?.refresh();
        return;
      case "prompts/refresh":
        void this.prompts?.refresh();
        return;
      case "prompts/run":
        void this.prompts?.run({ name: message.name, args: message.args, attachments: message.attachments ?? [], mode: message.mode });
        return;
      case "instructions/refresh":
        void this.instructions?.refresh();
        return;
      case "instructions/set":
        void this.instructions?.set(message.path, message.enabled);
        return;
      case "rewind/refresh":
        void this.rewind?.refresh();
        return;
      case "rewind/preview":
        void this.rewind?.preview(message.toSeq);
        return;
      case "rewind/go":
        void this.rewind?.rewind(message.toSeq, message.scope);
        return;
      case "rewind/undo":
        void this.rewind?.undo(message.rewindId);
        return;
      case "fork/go":
        void this.rewind?.fork(message.atSeq);
        return;
      case "fork/task":
        void this.rewind?.forkTask(message.atSeq, message.text);
        return;
      case "approval/answer":
        this.approvals?.answer(message.callId, message.decision, message.alwaysAllow === true);
        return;
      case "edit/reveal":
        void vscode.commands.executeCommand(EDIT_COMMANDS.reveal, message.callId);
        return;
    }
  }

  private post(webview: vscode.Webview, message: ToWebview): void {
    void webview.postMessage(ToWebview.parse(message));
  }
}

function stateMessage(state: KernelState): ToWebview {
  switch (state.kind) {
    case "idle":
    case "starting":
      return { type: "kernel/starting" };
    case "ready":
      return { type: "kernel/ready", info: state.info, joined: state.joined, differences: state.differences };
    case "restarting":
      return { type: "kernel/restarting", delayMs: state.delayMs, reason: state.reason };
    case "failed":
      return { type: "kernel/error", message: state.message };
  }
}

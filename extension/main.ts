// Activation does almost nothing (issue 2: measured and logged): the kernel starts when the chat
// view opens or a command needs it.
import * as vscode from "vscode";
import { ChatController, MODEL_SETTING } from "./chat/chatController.js";
import { ChatViewProvider } from "./chat/chatViewProvider.js";
import { wireModels } from "./model/wireModels.js";
import { ApprovalRouter } from "./approvals/approvalRouter.js";
import { ChatApprovals } from "./approvals/chatApprovals.js";
import { EditProposals } from "./edits/editProposals.js";
import { TurnUndo } from "./edits/turnUndo.js";
import { ChatInstructions } from "./chat/chatInstructions.js";
import { SessionRewind } from "./chat/sessionRewind.js";
import { ChatModes } from "./chat/chatModes.js";
import { ChatPrompts } from "./chat/chatPrompts.js";
import { askPromptInput, promptEditor } from "./chat/promptEditor.js";
import { registerUndoCommand } from "./edits/undoCommand.js";
import { PROPOSED_SCHEME, ProposedContent } from "./edits/proposedContent.js";
import { ApiKeys } from "./kernel/apiKeys.js";
import { createSupervisor, kernelWorkspace } from "./kernel/kernelHost.js";
import { KERNEL_SETTINGS, kernelEnv } from "./kernel/kernelSettings.js";
import { registerInlineCompletions } from "./completions/inlineCompletions.js";
import { McpTree } from "./mcp/mcpTree.js";
import { wireTasks } from "./tasks/wireTasks.js";
import type { TaskApprovals } from "./tasks/taskApprovals.js";
import type { KernelSupervisor } from "./kernel/kernelSupervisor.js";
import { errorMessage } from "../shared/errors.js";
import { plainText } from "./plainText.js";
import { TerminalHistory } from "./context/terminalHistory.js";
import { WriteProblems } from "./context/writeProblems.js";

let supervisor: KernelSupervisor | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel("Hearth", { log: true });
  context.subscriptions.push(log);
  const workspace = kernelWorkspace();
  const restartFor = (reason: string) => {
    if (!kernel || kernel.state.kind === "idle") return;
    log.info(`${reason}; restarting the kernel`);
    kernel.restart().catch(() => undefined); // the failure is logged and shown in the chat view
  };
  const apiKeys = new ApiKeys(context.secrets, () => restartFor("the API key changed"));
  const env = () => ({ ...kernelEnv(vscode.workspace.getConfiguration()), ...apiKeys.env() });
  supervisor = workspace ? createSupervisor(context, workspace, log, env) : undefined;
  const kernel = supervisor;
  const approvals = new ChatApprovals(log, () => vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`));
  // issue 12 items 4-5: the Tasks view, its commands, and task approvals by notification (no focus taken).
  const tasks =
    kernel && workspace
      ? wireTasks(context, kernel, workspace, log, () => vscode.workspace.getConfiguration().get<string>(MODEL_SETTING, ""))
      : undefined;
  // issue 28 item 6: the MCP view (servers, their state and tools; confirm, restart, turn off).
  if (kernel) context.subscriptions.push(new McpTree(kernel, log));
  const chat = kernel && workspace ? wireChat(context, kernel, workspace, log, approvals, tasks) : undefined;

  // issue 14 item 5: undo of a turn's edits, from the chat's button or the command.
  const undo = kernel
    ? new TurnUndo({
        kernel,
        sessionId: () => context.workspaceState.get<string>(SESSION_KEY),
        log,
        restricted: () => !vscode.workspace.isTrusted,
      })
    : undefined;
  if (undo) context.subscriptions.push(registerUndoCommand(undo));
  // issue 27: the project instructions the next turn is shown, each with its cost and its switch.
  const instructions = kernel ? new ChatInstructions({ kernel, log, restricted: () => !vscode.workspace.isTrusted }) : undefined;
  // issue 29 items 1 and 2: rewind of the chat's session to one of its messages, and fork at one, from the chat.
  const rewind =
    kernel && chat
      ? new SessionRewind({
          kernel,
          sessionId: () => context.workspaceState.get<string>(SESSION_KEY),
          log,
          restricted: () => !vscode.workspace.isTrusted,
          reload: () => chat.showTranscript(),
          open: (sessionId) => chat.openSession(sessionId),
          startTask: (task) => Promise.resolve(vscode.commands.executeCommand("hearth.startTask", task)),
        })
      : undefined;
  // issue 27: the modes the composer offers (code, ask, plan, the workspace's .hearth/modes).
  const modes = kernel ? new ChatModes({ kernel, log, restricted: () => !vscode.workspace.isTrusted }) : undefined;
  // issue 27: the workspace's prompt files, run as `/name args` from the chat.
  const prompts =
    kernel && chat
      ? new ChatPrompts({
          kernel,
          log,
          restricted: () => !vscode.workspace.isTrusted,
          ask: askPromptInput,
          editor: promptEditor,
          send: (text, attachments, mode) => chat.send(text, attachments, mode),
        })
      : undefined;
  // issue 31: completions as you type, on the model a chat has loaded (they never start the kernel).
  if (kernel) context.subscriptions.push(registerInlineCompletions(kernel, log));
  // issue 29 item 3: every terminal's commands are followed from their start, so @terminal has the last one's output.
  const terminals = new TerminalHistory();
  context.subscriptions.push(terminals);
  const chatView = new ChatViewProvider(
    context.extensionUri,
    kernel,
    chat,
    log,
    approvals,
    wireModels(context, kernel, log, async (spec) => chat?.modelSwitched(spec)),
    undo,
    instructions,
    rewind,
    modes,
    prompts,
    terminals,
  );
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chatView),
    vscode.commands.registerCommand("hearth.newChat", () => chat?.newChat()),
    vscode.commands.registerCommand("hearth.showLog", () => log.show()),
    vscode.commands.registerCommand("hearth.restartKernel", async () => {
      if (!kernel) {
        void vscode.window.showWarningMessage(
          "Hearth has nothing to restart: it runs on a folder, so open one first (File › Open Folder…).",
        );
        return;
      }
      try {
        await kernel.restart();
      } catch (e) {
        void vscode.window.showErrorMessage(plainText(errorMessage(e)), "Show Log").then((pick) => pick && log.show());
      }
    }),
    apiKeys,
    vscode.commands.registerCommand("hearth.setApiKey", () => apiKeys.promptAndStore()),
    vscode.commands.registerCommand("hearth.clearApiKey", () => apiKeys.clear()),
    vscode.commands.registerCommand("hearth.focusChat", () => chatView.focusComposer()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const changed = KERNEL_SETTINGS.filter((key) => e.affectsConfiguration(key));
      if (changed.length) restartFor(`${changed.join(", ")} changed`);
    }),
  );
  log.info(
    `activated in ${(performance.now() - t0).toFixed(1)} ms (VS Code ${vscode.version}, extension host Node ${process.version}); ` +
      (workspace ? `the kernel for ${workspace} starts on first use` : "no folder open: the kernel starts once a folder is opened"),
  );
}

const SESSION_KEY = "hearth.chat.sessionId";

/** The chat and the answers to approval/request (edits in the file, the rest in the chat), on every kernel the supervisor starts. */
function wireChat(
  context: vscode.ExtensionContext,
  kernel: KernelSupervisor,
  workspace: string,
  log: vscode.LogOutputChannel,
  chatApprovals: ChatApprovals,
  tasks?: TaskApprovals,
): ChatController {
  const proposed = new ProposedContent();
  const edits = new EditProposals(workspace, proposed, log, chatApprovals);
  const approvals = new ApprovalRouter(edits, chatApprovals, log, tasks);
  const writeProblems = new WriteProblems(workspace);
  const chat = new ChatController({
    kernel,
    model: () => vscode.workspace.getConfiguration().get<string>(MODEL_SETTING, ""),
    store: {
      get: () => context.workspaceState.get<string>(SESSION_KEY),
      set: (sessionId) => context.workspaceState.update(SESSION_KEY, sessionId),
    },
    log,
    restricted: () => !vscode.workspace.isTrusted,
  });
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, proposed),
    edits,
    writeProblems,
    kernel.onClient((client) => {
      client.onServerRequest("approval/request", (req, signal) => approvals.ask(req, signal));
      // issue 29 item 4: the problems an accepted edit left in its file, for the edit's result.
      client.onServerRequest("diagnostics/baseline", async (req) => writeProblems.baseline(req));
      client.onServerRequest("diagnostics/afterWrite", (req, signal) => writeProblems.afterWrite(req, signal));
    }),
    chat,
  );
  return chat;
}

export async function deactivate(): Promise<void> {
  await supervisor?.dispose();
  supervisor = undefined;
}

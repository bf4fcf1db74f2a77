// Wires background tasks into VS Code (issue 12 items 4-5): the Tasks view and its badge, the task
// commands, task transcripts, the notification that answers a task's approval, and a status bar
// item counting running tasks and approvals waiting (hidden when both are zero).
import * as vscode from "vscode";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { TaskApprovals } from "./taskApprovals.js";
import { registerTaskCommands, TaskTranscripts, TRANSCRIPT_SCHEME } from "./taskCommands.js";
import { TaskStore } from "./taskStore.js";
import { taskCountText } from "./taskText.js";
import { TASKS_VIEW, TaskTree } from "./taskTree.js";

export function wireTasks(
  context: vscode.ExtensionContext,
  kernel: KernelSupervisor,
  workspace: string,
  log: vscode.LogOutputChannel,
  model: () => string,
): TaskApprovals {
  const store = new TaskStore(kernel, log);
  const transcripts = new TaskTranscripts(kernel);
  const tree = new TaskTree(store, async (taskId) => (await (await kernel.ensureStarted()).request("task/show", { taskId })).result);
  const status = vscode.window.createStatusBarItem("hearth.tasks", vscode.StatusBarAlignment.Right, 99);
  status.name = "Hearth Tasks";
  status.command = `${TASKS_VIEW}.focus`;
  const approvals = new TaskApprovals({
    title: (taskId) => store.get(taskId)?.title,
    openTranscript: (taskId) =>
      vscode.commands.executeCommand(
        "hearth.tasks.openTranscript",
        store.get(taskId) ? { kind: "task", task: store.get(taskId) } : undefined,
      ),
    workspace,
    proposed: transcripts,
    log,
    changed: () => renderStatus(),
  });
  const renderStatus = (): void => {
    const tasks = store.list();
    // A request this window holds counts even before task/updated says the task waits.
    const waiting = Math.max(tasks.filter((t) => t.state === "waiting_approval").length, approvals.pendingCount);
    const shown = taskCountText([
      ...tasks.filter((t) => t.state !== "waiting_approval"),
      ...Array.from({ length: waiting }, () => ({ state: "waiting_approval" as const })),
    ]);
    if (!shown) {
      status.hide();
      return;
    }
    status.text = shown.text;
    status.tooltip = shown.tooltip;
    status.accessibilityInformation = { label: shown.text.replace(/\$\([^)]*\)\s*/, "Hearth tasks: ") };
    status.show();
  };
  context.subscriptions.push(
    store,
    tree,
    status,
    store.onChange(() => {
      renderStatus();
      for (const task of store.list()) transcripts.taskChanged(task.taskId);
    }),
    vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    registerTaskCommands(kernel, store, transcripts, log, model),
  );
  return approvals;
}

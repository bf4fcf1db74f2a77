// The Tasks view in the Hearth container (issue 12 item 5): each task with its state as icon and
// words, elapsed time and last activity; its children say the instruction, the reason it ended and
// its result. The badge counts tasks waiting for a person's approval (item 4), so a waiting task
// is seen without anything taking the focus.
import * as vscode from "vscode";
import { DisposableStore } from "../../shared/lifecycle.js";
import type { TaskSummary } from "../../shared/protocol/index.js";
import { elapsed, forkOriginText, HAS_TASKS_CONTEXT, isEnded, READ_ONLY_LABEL, READ_ONLY_WHY, STATE_LOOK, taskBadge } from "./taskText.js";
import type { TaskStore } from "./taskStore.js";

export const TASKS_VIEW = "hearth.tasksView";
/** A task item's contextValue: `hearthTask:<state>`, which the menus in package.json match. */
export const TASK_CONTEXT = "hearthTask";

type Node = { kind: "task"; task: TaskSummary } | { kind: "detail"; task: TaskSummary; label: string; text: string };

export class TaskTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Node>;
  private readonly results = new Map<string, string | null>();
  private ticker: NodeJS.Timeout | undefined;
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly store: TaskStore,
    private readonly result: (taskId: string) => Promise<string | null>,
  ) {
    this.view = vscode.window.createTreeView(TASKS_VIEW, { treeDataProvider: this, showCollapseAll: false });
    this.subscriptions.add(this.view);
    this.subscriptions.add(store.onChange(() => this.render()));
    // The view asks the kernel when it is first shown (the kernel starts on first use).
    this.subscriptions.add(this.view.onDidChangeVisibility((e) => e.visible && void store.refresh()));
    this.render();
  }

  private render(): void {
    const tasks = this.store.list();
    this.view.badge = taskBadge(tasks);
    // The task commands sit in the palette only when there is a task to act on (package.json `when`).
    void vscode.commands.executeCommand("setContext", HAS_TASKS_CONTEXT, tasks.length > 0);
    this.view.message = tasks.length ? undefined : "No background tasks yet. Run “Hearth: Start Background Task…” to start one.";
    // Elapsed time moves while a task runs: redraw each second then, never when all have ended.
    const live = tasks.some((t) => !isEnded(t.state));
    if (live && !this.ticker) this.ticker = setInterval(() => this.changed.fire(undefined), 1000);
    if (!live && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] | Promise<Node[]> {
    if (!node) return this.store.list().map((task) => ({ kind: "task", task }));
    if (node.kind !== "task") return [];
    return this.details(node.task);
  }

  private async details(task: TaskSummary): Promise<Node[]> {
    const rows: Node[] = [{ kind: "detail", task, label: "Instruction", text: task.instruction }];
    if (task.forkedFrom) rows.push({ kind: "detail", task, label: "Forked from", text: forkOriginText(task.forkedFrom) });
    if (task.reason) rows.push({ kind: "detail", task, label: "Why", text: task.reason });
    if (task.state === "completed") {
      let result = this.results.get(task.taskId);
      if (result === undefined) {
        result = await this.result(task.taskId).catch((e: Error) => `(could not read the result: ${e.message})`);
        this.results.set(task.taskId, result);
      }
      rows.push({ kind: "detail", task, label: "Result", text: result ?? "(no answer)" });
    }
    return rows;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "detail") {
      const item = new vscode.TreeItem(`${node.label}: ${node.text.replace(/\s+/g, " ")}`, vscode.TreeItemCollapsibleState.None);
      item.tooltip = new vscode.MarkdownString(undefined).appendMarkdown(`**${node.label}**\n\n`).appendText(node.text);
      item.command = { command: "hearth.tasks.openTranscript", title: "Open Transcript", arguments: [{ kind: "task", task: node.task }] };
      return item;
    }
    const { task } = node;
    const look = STATE_LOOK[task.state];
    const item = new vscode.TreeItem(task.title, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = task.taskId;
    const activity = this.store.lastActivity(task.taskId);
    item.description = [
      look.label,
      ...(task.readOnly ? [READ_ONLY_LABEL] : []),
      elapsed(task, Date.now()),
      ...(activity && !isEnded(task.state) ? [activity] : []),
    ].join(" · ");
    item.iconPath = new vscode.ThemeIcon(look.icon);
    item.contextValue = `${TASK_CONTEXT}:${task.state}`;
    const tip = new vscode.MarkdownString(undefined);
    tip
      .appendMarkdown(`**`)
      .appendText(task.title)
      .appendMarkdown(`** — ${look.label}, ${elapsed(task, Date.now())}\n\n`)
      .appendText(task.instruction);
    if (activity) tip.appendMarkdown(`\n\nLast activity: `).appendText(activity);
    if (task.readOnly) tip.appendMarkdown(`\n\n`).appendText(READ_ONLY_WHY);
    if (task.reason) tip.appendMarkdown(`\n\nWhy: `).appendText(task.reason);
    item.tooltip = tip;
    item.accessibilityInformation = { label: `${task.title}, ${look.label}` };
    return item;
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.subscriptions.dispose();
    this.changed.dispose();
  }
}

/** What a command from the view's menus receives: the task item, or nothing (then: a pick). */
export type TaskNode = Node;

// The window's copy of the kernel's tasks (issue 12 item 5): filled by task/list whenever a
// connection becomes ready (joined, started or reconnected after a reload) and kept current by
// task/updated, which the kernel sends to every client. turn/event of a task's session gives its
// last activity. The kernel is the truth; this is a view of it, never a second record.
import * as vscode from "vscode";
import { DisposableStore } from "../../shared/lifecycle.js";
import type { TaskSummary } from "../../shared/protocol/index.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { activityOf } from "./taskText.js";
import { errorMessage } from "../../shared/errors.js";

export class TaskStore implements vscode.Disposable {
  private readonly tasks = new Map<string, TaskSummary>();
  private readonly activity = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onChange = this.changed.event;
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly kernel: KernelSupervisor,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions.add(
      kernel.onClient((client) => {
        client.onNotification("task/updated", ({ task }) => this.put(task));
        client.onNotification("turn/event", ({ sessionId, event }) => {
          const what = activityOf(event);
          const task = what && this.bySession(sessionId);
          if (!task || this.activity.get(task.taskId) === what) return;
          this.activity.set(task.taskId, what);
          this.changed.fire();
        });
      }),
    );
    this.subscriptions.add(
      kernel.onState((state) => {
        if (state.kind === "ready") void this.refresh();
      }),
    );
    if (kernel.state.kind === "ready") void this.refresh();
  }

  /** Newest first, as task/list orders them. */
  list(): TaskSummary[] {
    return [...this.tasks.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(taskId: string): TaskSummary | undefined {
    return this.tasks.get(taskId);
  }

  lastActivity(taskId: string): string | undefined {
    return this.activity.get(taskId);
  }

  put(task: TaskSummary): void {
    this.tasks.set(task.taskId, task);
    this.changed.fire();
  }

  /** Reads the kernel's list again; a failure is logged and the view keeps what it had. */
  async refresh(): Promise<void> {
    try {
      const client = await this.kernel.ensureStarted();
      const { tasks } = await client.request("task/list", {});
      this.tasks.clear();
      for (const task of tasks) this.tasks.set(task.taskId, task);
      this.changed.fire();
    } catch (e) {
      this.log.warn(`tasks: could not list the kernel's tasks: ${errorMessage(e)}`);
    }
  }

  private bySession(sessionId: string): TaskSummary | undefined {
    for (const task of this.tasks.values()) if (task.sessionId === sessionId) return task;
    return undefined;
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.changed.dispose();
  }
}

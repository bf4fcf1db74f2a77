// The person's task actions (issue 12 item 5): "Hearth: Start Background Task…" (an input box for
// the instruction; the title is its first words) and, from the Tasks view, open the transcript
// (a read-only Markdown document built from session/history), cancel, resume, dismiss and rerun.
// Every failure says what failed and why, in a notification and the Hearth log.
import * as vscode from "vscode";
import { DisposableStore, type IDisposable } from "../../shared/lifecycle.js";
import type { RequestMethod, TaskSummary } from "../../shared/protocol/index.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { titleFromInstruction, transcriptMarkdown } from "./taskText.js";
import type { TaskStore } from "./taskStore.js";
import type { TaskNode } from "./taskTree.js";
import { errorMessage } from "../../shared/errors.js";
import { plainText } from "../plainText.js";
import { isForkedTask, type ForkPoint } from "./forkedTask.js";

export const TRANSCRIPT_SCHEME = "hearth-task";

/** Task transcripts as read-only documents: `hearth-task:/<taskId>/<title>.md`, read when opened. */
export class TaskTranscripts implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>();
  /** A task's proposed file contents while its approval waits (Show's right side). */
  private readonly proposals = new Map<string, string>();
  private next = 0;

  constructor(private readonly kernel: KernelSupervisor) {}

  uri(task: TaskSummary): vscode.Uri {
    const name = task.title.replace(/[^\w .-]+/g, "_").slice(0, 60) || "task";
    return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${task.taskId}/${name}.md` });
  }

  /** The task changed: an open transcript is read again. */
  taskChanged(taskId: string): void {
    const uri = this.open.get(taskId);
    if (uri) this.changed.fire(uri);
  }

  /** A read-only document of a proposed file content, named like the file (so it gets its language). */
  add(filePath: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/proposal/${this.next++}/${filePath}` });
    this.proposals.set(uri.toString(), content);
    return uri;
  }

  remove(uri: vscode.Uri): void {
    this.proposals.delete(uri.toString());
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const proposal = this.proposals.get(uri.toString());
    if (proposal !== undefined) return proposal;
    const taskId = uri.path.split("/")[1] ?? "";
    this.open.set(taskId, uri);
    try {
      const client = await this.kernel.ensureStarted();
      const { task, result } = await client.request("task/show", { taskId });
      const history = await client.request("session/history", { sessionId: task.sessionId });
      return transcriptMarkdown(task, history.messages, result);
    } catch (e) {
      return `# Task ${taskId}\n\nThe transcript could not be read: ${errorMessage(e)}\n`;
    }
  }
}

export function registerTaskCommands(
  kernel: KernelSupervisor,
  store: TaskStore,
  transcripts: TaskTranscripts,
  log: vscode.LogOutputChannel,
  model: () => string,
): IDisposable {
  const fail = (what: string, e: unknown): void => {
    const message = plainText(`Hearth could not ${what}: ${errorMessage(e)}`);
    log.warn(`tasks: ${message}`);
    void vscode.window.showErrorMessage(message, "Show Log").then((pick) => pick && log.show());
  };

  /** A forked task (issue 29 item 2) runs on its chat's model: the kernel takes it when none is passed. */
  const start = async (
    instruction: string,
    given: Partial<Pick<TaskSummary, "title" | "tools" | "model">> & { forkOf?: ForkPoint } = {},
  ) => {
    try {
      const client = await kernel.ensureStarted();
      const spec = given.model ?? (given.forkOf ? undefined : model());
      const { task } = await client.request("task/start", {
        instruction,
        title: given.title ?? titleFromInstruction(instruction),
        ...(spec ? { model: spec } : {}),
        ...(given.tools ? { tools: given.tools } : {}),
        ...(given.forkOf ? { forkOf: given.forkOf } : {}),
        // issue 24: a task started from an untrusted folder (Restricted Mode) is read-only for its life.
        readOnly: !vscode.workspace.isTrusted,
      });
      store.put(task);
      log.info(
        `tasks: started task ${task.taskId} "${task.title}" (${task.state})${given.forkOf ? ` forked from session ${given.forkOf.sessionId} at #${given.forkOf.atSeq}` : ""}`,
      );
    } catch (e) {
      fail("start the background task", e);
    }
  };

  /** The task a command acts on: the view's item, or a pick among the tasks that allow the action. */
  const target = async (node: TaskNode | undefined, allowed: (t: TaskSummary) => boolean): Promise<TaskSummary | undefined> => {
    if (node) return store.get(node.task.taskId) ?? node.task;
    const candidates = store.list().filter(allowed);
    if (!candidates.length) {
      void vscode.window.showInformationMessage("Hearth has no background task this applies to.");
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      candidates.map((t) => ({ label: t.title, description: t.state, task: t })),
      { placeHolder: "Which task?" },
    );
    return pick?.task;
  };

  const act =
    (method: Extract<RequestMethod, "task/cancel" | "task/resume" | "task/dismiss">, verb: string, allowed: (t: TaskSummary) => boolean) =>
    async (node?: TaskNode) => {
      const task = await target(node, allowed);
      if (!task) return;
      try {
        const client = await kernel.ensureStarted();
        const answer = await client.request(method, { taskId: task.taskId });
        store.put(answer.task);
        log.info(`tasks: ${verb} task ${task.taskId} → ${answer.task.state}`);
      } catch (e) {
        fail(`${verb} task "${task.title}"`, e);
      }
    };

  const commands = new DisposableStore();
  // From the palette it asks; the chat's "Run in background" passes the message.
  commands.add(
    vscode.commands.registerCommand("hearth.startTask", async (given?: unknown) => {
      if (typeof given === "string" && given.trim()) return start(given.trim());
      if (isForkedTask(given)) {
        // The chat's Fork as task: the message comes back to be changed, as a fork's does in the box.
        const instruction = await vscode.window.showInputBox({
          title: "Hearth: Fork into a Background Task",
          prompt:
            "The task starts with this chat's history before the message, and does this (change it, or press Enter). The chat stays as it is.",
          value: given.instruction,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? null : "Say what the task should do."),
        });
        if (instruction?.trim()) await start(instruction.trim(), { forkOf: given.forkOf });
        return;
      }
      const instruction = await vscode.window.showInputBox({
        title: "Hearth: Start Background Task",
        prompt: "What should Hearth do in the background? It runs beside your chat; the Tasks view shows it.",
        placeHolder: "e.g. add tests for the parser",
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? null : "Say what the task should do."),
      });
      if (instruction?.trim()) await start(instruction.trim());
    }),
  );
  commands.add(
    vscode.commands.registerCommand("hearth.tasks.openTranscript", async (node?: TaskNode) => {
      const task = await target(node, () => true);
      if (!task) return;
      // Rendered like a chat, not as Markdown source (issue 25 item 11); the source where no
      // Markdown preview is installed.
      const uri = transcripts.uri(task);
      await vscode.commands.executeCommand("markdown.showPreview", uri).then(undefined, async (e: unknown) => {
        log.info(`task transcript: no Markdown preview (${errorMessage(e)}); showing its source`);
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
      });
    }),
  );
  commands.add(
    vscode.commands.registerCommand(
      "hearth.tasks.cancel",
      act("task/cancel", "cancel", (t) => ["queued", "running", "waiting_approval", "orphaned"].includes(t.state)),
    ),
  );
  commands.add(
    vscode.commands.registerCommand(
      "hearth.tasks.resume",
      act("task/resume", "resume", (t) => t.state === "orphaned"),
    ),
  );
  commands.add(
    vscode.commands.registerCommand(
      "hearth.tasks.dismiss",
      act("task/dismiss", "dismiss", (t) => t.state === "orphaned"),
    ),
  );
  commands.add(
    vscode.commands.registerCommand("hearth.tasks.rerun", async (node?: TaskNode) => {
      const task = await target(node, () => true);
      if (task)
        await start(task.instruction, {
          title: task.title,
          tools: task.tools,
          model: task.model,
          ...(task.forkedFrom ? { forkOf: { sessionId: task.forkedFrom.sessionId, atSeq: task.forkedFrom.atSeq } } : {}),
        });
    }),
  );
  commands.add(vscode.commands.registerCommand("hearth.tasks.refresh", () => store.refresh()));
  return commands;
}

// A background task's approval/request (it carries taskId) never steals focus (issue 12
// item 4): a non-modal notification "Task "<title>" wants to run <tool> on <target>" with Allow /
// Deny / Show. Show opens the task's transcript and, for a file change, the proposed change beside
// the file as it is; the notification comes back, since the request still waits. Exactly one
// answer per request (OneAnswer); an unanswered request waits without blocking anything else, and
// the kernel also asks the other clients, so another window or a later one may answer it.
import * as vscode from "vscode";
import type { ServerRequestParams } from "../../shared/protocol/index.js";
import { askText } from "../approvals/approvalText.js";
import { OneAnswer, type Answer } from "../approvals/oneAnswer.js";
import { approvalTarget, taskApprovalText } from "./taskText.js";
import { errorMessage } from "../../shared/errors.js";

type Request = ServerRequestParams<"approval/request">;

const ALLOW = "Allow";
const DENY = "Deny";
const SHOW = "Show";

export interface TaskApprovalDeps {
  /** The task's title, or undefined when this window does not know the task yet. */
  title(taskId: string): string | undefined;
  openTranscript(taskId: string): Thenable<unknown>;
  workspace: string;
  /** Read-only documents of proposed content, removed once the request is answered. */
  proposed: { add(filePath: string, content: string): vscode.Uri; remove(uri: vscode.Uri): void };
  log: vscode.LogOutputChannel;
  /** The pending count changed (the status bar shows it). */
  changed(): void;
}

export class TaskApprovals {
  private readonly pending = new Map<string, OneAnswer>();

  constructor(private readonly deps: TaskApprovalDeps) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  ask(req: Request, signal: AbortSignal): Promise<Answer> {
    const callId = req.call.callId;
    const shown: vscode.Uri[] = [];
    const one = new OneAnswer(signal, () => {
      this.pending.delete(callId);
      for (const uri of shown) this.deps.proposed.remove(uri);
      this.deps.changed();
    });
    if (one.settled) return one.promise;
    this.pending.set(callId, one);
    this.deps.changed();
    void this.notify(req, one, shown);
    return one.promise;
  }

  private async notify(req: Request, one: OneAnswer, shown: vscode.Uri[]): Promise<void> {
    const taskId = req.taskId!;
    const title = this.deps.title(taskId) ?? `task ${taskId}`;
    const text = taskApprovalText(title, req.call.name, approvalTarget(req.preview));
    while (!one.settled) {
      const pick = await vscode.window.showInformationMessage(text, { modal: false, detail: askText(req) }, ALLOW, DENY, SHOW);
      if (one.settled) return;
      if (pick === ALLOW)
        one.settle({ decision: "approve", reason: `allowed from the notification of task "${title}"`, surface: "notification" });
      else if (pick === DENY)
        one.settle({ decision: "deny", reason: `the person denied it from the notification of task "${title}"`, surface: "notification" });
      else if (pick === SHOW) await this.show(req, shown);
      // Dismissed: the request still waits (the Tasks view's badge says so); Show asks again.
      else return;
    }
  }

  private async show(req: Request, shown: vscode.Uri[]): Promise<void> {
    try {
      await this.deps.openTranscript(req.taskId!);
      const preview = req.preview;
      if (preview.kind === "diff" && preview.newContent !== undefined) {
        const proposed = this.deps.proposed.add(preview.path, preview.newContent);
        shown.push(proposed);
        const file = vscode.Uri.file(`${this.deps.workspace}/${preview.path}`);
        const exists = await vscode.workspace.fs.stat(file).then(
          () => true,
          () => false,
        );
        const left = exists ? file : this.deps.proposed.add(preview.path, "");
        if (!exists) shown.push(left);
        await vscode.commands.executeCommand("vscode.diff", left, proposed, `${preview.path} (proposed by a background task)`, {
          preview: true,
          preserveFocus: true,
        });
      }
    } catch (e) {
      this.deps.log.warn(`tasks: could not show the request of call ${req.call.callId}: ${errorMessage(e)}`);
    }
  }
}

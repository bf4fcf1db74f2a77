// Answers the kernel's approval/request in the editor: a modal warning with Allow / Deny (and Show
// Diff for a proposed file change). Exactly one answer per request; closing the dialog denies
// (spec 000 #8: the default denies; reasons are single-line). Every decision goes to the Hearth log.
import path from "node:path";
import * as vscode from "vscode";
import type { ServerRequestParams, ServerRequestResult } from "../../shared/protocol/index.js";
import { approvalDetail, describeCall, singleLine } from "./approvalText.js";

type Request = ServerRequestParams<"approval/request">;
type Answer = ServerRequestResult<"approval/request">;

const ALLOW = "Allow";
const DENY = "Deny";
const SHOW_DIFF = "Show Diff";

export const PROPOSED_SCHEME = "hearth-proposed";

/** Read-only documents holding proposed content, for the diff editor. */
export class ProposedContent implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private next = 0;

  /** A virtual document named like the target file (so the editor picks its language). */
  add(filePath: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${this.next++}/${filePath}` });
    this.contents.set(uri.toString(), content);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }
}

export class EditorApprovals {
  constructor(
    private readonly workspace: string,
    private readonly proposed: ProposedContent,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async ask(req: Request, signal: AbortSignal): Promise<Answer> {
    let answer: Answer;
    try {
      answer = await this.decide(req, signal);
    } catch (e) {
      // Still exactly one answer: a prompt that could not be shown denies (spec 000 #8).
      answer = { decision: "deny", reason: `denied: the editor could not ask (${(e as Error).message})` };
    }
    // spec 000 #8: the reason is single-line and bounded.
    const checked: Answer = { decision: answer.decision, reason: singleLine(answer.reason, 240) || answer.decision };
    this.log.info(`approval: ${req.call.name} (${req.effectClass}) call ${req.call.callId} in run ${req.runId} → ${checked.decision} (${checked.reason})`);
    return checked;
  }

  private async decide(req: Request, signal: AbortSignal): Promise<Answer> {
    const { preview } = req;
    const canDiff = preview.kind === "diff" && preview.newContent !== undefined;
    const buttons = canDiff ? [ALLOW, SHOW_DIFF, DENY] : [ALLOW, DENY];
    const cancelled = new Promise<"cancelled">((resolve) => {
      if (signal.aborted) resolve("cancelled");
      signal.addEventListener("abort", () => resolve("cancelled"), { once: true });
    });
    for (;;) {
      // A modal cannot be closed from here: if the kernel withdraws the request (the turn was
      // cancelled) the answer is moot, and a later click is ignored.
      const pick = await Promise.race([
        vscode.window.showWarningMessage(describeCall(req), { modal: true, detail: approvalDetail(req) }, ...buttons),
        cancelled,
      ]);
      if (pick === "cancelled") return { decision: "deny", reason: "cancelled: the kernel withdrew the request" };
      if (pick === ALLOW) return { decision: "approve", reason: "allowed in the editor" };
      if (pick === DENY) return { decision: "deny", reason: "denied in the editor" };
      if (pick === undefined) return { decision: "deny", reason: "dismissed" };
      if (preview.kind === "diff" && preview.newContent !== undefined) await this.showDiff(preview.path, preview.newContent);
    }
  }

  /** vscode.diff of the file as it is (or an empty document for a new file) and the proposed content. */
  private async showDiff(relPath: string, newContent: string): Promise<void> {
    const onDisk = vscode.Uri.file(path.join(this.workspace, relPath));
    let left: vscode.Uri;
    try {
      await vscode.workspace.fs.stat(onDisk);
      left = onDisk;
    } catch {
      left = this.proposed.add(relPath, "");
    }
    const right = this.proposed.add(relPath, newContent);
    await vscode.commands.executeCommand("vscode.diff", left, right, `${relPath} (proposed by Hearth)`, { preview: true });
  }
}

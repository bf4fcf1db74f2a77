// Answers the kernel's approval/request where the person works (issue 14): a proposed file change
// in the file itself (extension/edits), anything else on its card in the chat or a notification.
// Exactly one answer per request; a failure to ask denies (harness #8: the default denies).
// Every decision goes to the Hearth log.
import type * as vscode from "vscode";
import type { ServerRequestParams } from "../../shared/protocol/index.js";
import type { EditProposals } from "../edits/editProposals.js";
import { singleLine } from "../../shared/boundedText.js";
import type { ChatApprovals } from "./chatApprovals.js";
import type { Answer } from "./oneAnswer.js";
import { errorMessage } from "../../shared/errors.js";

type Request = ServerRequestParams<"approval/request">;

export class ApprovalRouter {
  constructor(
    private readonly edits: EditProposals,
    private readonly chat: ChatApprovals,
    private readonly log: vscode.LogOutputChannel,
    /** A background task's request (it carries taskId): a notification that takes no focus (issue 12 item 4). */
    private readonly tasks?: { ask(req: Request, signal: AbortSignal): Promise<Answer> },
  ) {}

  async ask(req: Request, signal: AbortSignal): Promise<Answer> {
    const inFile = req.preview.kind === "diff" && req.preview.newContent !== undefined;
    let answer: Answer;
    try {
      answer =
        req.taskId && this.tasks
          ? await this.tasks.ask(req, signal)
          : inFile
            ? await this.edits.ask(req, signal)
            : await this.chat.ask(req, signal);
    } catch (e) {
      answer = { decision: "deny", reason: singleLine(`denied: the editor could not ask (${errorMessage(e)})`) };
    }
    this.log.info(
      `approval: ${req.call.name} (${req.effectClass}) call ${req.call.callId} in run ${req.turnId} → ${answer.decision} (${answer.reason})`,
    );
    return answer;
  }
}

// Shell, network and other non-edit approvals, answered in place (issue 14): on the call's card in
// the chat (Allow / Deny with exactly what it will do) and, when the chat is hidden, by a
// non-modal notification. Nothing blocks the editor. The first answer counts; an unanswered
// request waits until the turn ends.
import * as vscode from "vscode";
import type { ServerRequestParams } from "../../shared/protocol/index.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import { askText, notificationText } from "./approvalText.js";
import { OneAnswer, type Answer } from "./oneAnswer.js";
import type { ProposalWatcher } from "../edits/editProposals.js";

type Request = ServerRequestParams<"approval/request">;

/** The chat view while it exists: where cards go, and whether a person can see them. */
export interface ChatSurface {
  post(message: ToWebview): void;
  visible(): boolean;
}

const ALLOW = "Allow";
const DENY = "Deny";
const OPEN_CHAT = "Open Chat";

export class ChatApprovals implements ProposalWatcher {
  private readonly pending = new Map<string, { req: Request; one: OneAnswer }>();
  /** Proposed edits waiting in the editor (issue 25 item 9): their cards say so, again after a reload. */
  private readonly inEditor = new Map<string, string>();
  private surface: ChatSurface | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly focusChat: () => Thenable<unknown>,
  ) {}

  attach(surface: ChatSurface | undefined): void {
    this.surface = surface;
  }

  ask(req: Request, signal: AbortSignal): Promise<Answer> {
    const callId = req.call.callId;
    const one = new OneAnswer(signal, (answer) => {
      this.pending.delete(callId);
      this.surface?.post({ type: "approval/settled", callId, decision: answer.decision, reason: answer.reason });
    });
    if (one.settled) return one.promise;
    this.pending.set(callId, { req, one });
    this.surface?.post(pendingMessage(req));
    if (!this.surface?.visible()) void this.notify(req, one);
    return one.promise;
  }

  /** Allow / Deny (or Always allow: the offered workspace rule is written too) from a card. */
  answer(callId: string, decision: "approve" | "deny", alwaysAllow = false): void {
    const entry = this.pending.get(callId);
    if (!entry) {
      this.log.info(`approval: a card answered call ${callId}, which has no pending request (already answered or its turn ended)`);
      return;
    }
    entry.one.settle(
      decision === "approve"
        ? alwaysAllow && entry.req.alwaysAllow
          ? { decision, reason: "allowed on its card in the chat, always in this folder", surface: "card", alwaysAllow: true }
          : { decision, reason: "allowed on its card in the chat", surface: "card" }
        : { decision, reason: "the person denied it on its card in the chat", surface: "card" },
    );
  }

  /** The view (re)loaded: its cards for requests still waiting. */
  replay(): void {
    for (const { req } of this.pending.values()) this.surface?.post(pendingMessage(req));
    for (const [callId, file] of this.inEditor) this.surface?.post({ type: "edit/waiting", callId, file });
  }

  waiting(callId: string, file: string): void {
    this.inEditor.set(callId, file);
    this.surface?.post({ type: "edit/waiting", callId, file });
  }

  decided(callId: string): void {
    if (this.inEditor.delete(callId)) this.surface?.post({ type: "edit/decided", callId });
  }

  private async notify(req: Request, one: OneAnswer): Promise<void> {
    const text = notificationText(req);
    // An ask too long to show whole in a notification is only answered where it is shown whole.
    const pick =
      text === null
        ? await vscode.window.showInformationMessage(
            `Hearth asks to run ${req.call.name}; the full request is on its card in the chat.`,
            OPEN_CHAT,
            DENY,
          )
        : await vscode.window.showInformationMessage(text, ALLOW, DENY);
    if (one.settled) return;
    if (pick === ALLOW) one.settle({ decision: "approve", reason: "allowed from the notification", surface: "notification" });
    else if (pick === DENY) one.settle({ decision: "deny", reason: "the person denied it from the notification", surface: "notification" });
    else if (pick === OPEN_CHAT) await this.focusChat();
    // Dismissed: the request still waits on its card.
  }
}

function pendingMessage(req: Request): ToWebview {
  return {
    type: "approval/pending",
    turnId: req.turnId,
    call: req.call,
    effectClass: req.effectClass,
    ask: askText(req),
    ...(req.alwaysAllow ? { alwaysAllow: req.alwaysAllow } : {}),
  };
}

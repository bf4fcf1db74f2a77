// The chat webview (browser bundle). It talks to the extension only through the typed messages of
// shared/protocol/webview.ts, validated on arrival and before sending.
import { z } from "zod";
import { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { Composer } from "./composer.js";
import { ChatHeader } from "./header.js";
import { MarkdownRenderer } from "./markdown.js";
import { renderModel } from "./modelPanel.js";
import { ApprovalCards } from "./approvalCards.js";
import { SessionList } from "./sessionList.js";
import { Transcript } from "./transcript.js";
import { renderTrustBanner } from "./trustBanner.js";
import { UndoButtons } from "./undoButton.js";
import { InstructionsPanel } from "./instructionsPanel.js";
import { RewindMenus } from "./rewindMenu.js";
import { ModePicker } from "./modePicker.js";
import { PlanImplement } from "./planImplement.js";
import { SlashMenu } from "./slashMenu.js";
import { slashRun } from "./slashCommands.js";
import { PromptCommands } from "./promptCommands.js";
import type { Attachment } from "../shared/protocol/attachments.js";
import { classifyTurnError, errorActions, type ViewActions } from "./errorActions.js";
import { measuredRoom } from "./longPaste.js";

// The CSP forbids eval; without this zod would probe `new Function` and log a CSP violation.
z.config({ jitless: true });

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById("app")!;

function send(message: FromWebview): void {
  vscode.postMessage(FromWebview.parse(message));
}

// The one live region: completed answers and status changes only, never each streamed chunk.
const announcer = document.createElement("div");
announcer.className = "sr-only";
announcer.dataset.testid = "announcer";
announcer.setAttribute("role", "status");
announcer.setAttribute("aria-live", "polite");
function announce(text: string): void {
  announcer.textContent = text;
}

const actions: ViewActions = {
  selectModel: () => send({ type: "command/run", command: "hearth.selectModel" }),
  compact: () => send({ type: "chat/compact" }),
  continueInNewChat: () => send({ type: "chat/continueInNewChat" }),
  keepChatModel: () => send({ type: "chat/keepChatModel" }),
  keepChatTools: () => send({ type: "chat/keepChatTools" }),
  restartKernel: () => send({ type: "kernel/restart" }),
  showLog: () => send({ type: "command/run", command: "hearth.showLog" }),
};
const sessions = new SessionList({
  open: (sessionId) => {
    toggleHistory(false);
    send({ type: "session/open", sessionId });
  },
  rename: (sessionId, title) => send({ type: "session/rename", sessionId, title }),
  hide: (sessionId) => send({ type: "session/hide", sessionId }),
  erase: (sessionId) => send({ type: "session/erase", sessionId }),
});
function toggleHistory(open = !sessions.open): void {
  sessions.toggle(open);
  header.setHistoryOpen(open);
  if (open) send({ type: "session/list" });
}
const header = new ChatHeader({ ...actions, toggleHistory: () => toggleHistory() });
const transcript = new Transcript(
  {
    renderer: new MarkdownRenderer(window),
    code: {
      copy: (text) => send({ type: "code/copy", text }),
      insert: (text) => send({ type: "code/insert", text }),
      apply: (text, file) => send({ type: "code/apply", text, ...(file ? { file } : {}) }),
    },
    actions,
    announce,
    onContext: (context) => {
      header.setContext(context);
      composer.setContext(context);
    },
    onTooLong: (message, tooLong) => composer.setMeasuredRoom(measuredRoom(message, tooLong)),
    putBack: (message, tooLong, trim) => {
      composer.setMeasuredRoom(measuredRoom(message, tooLong));
      if (!composer.putBack(message, trim))
        transcript.notice("info", "The message box holds another message: send it or clear it, then press this again.");
    },
  },
  {
    requestOlder: (sessionId, beforeSeq) => send({ type: "chat/older", sessionId, beforeSeq }),
    requestLatest: () => send({ type: "chat/latest" }),
  },
);
const undo = new UndoButtons(transcript.node, send);
const rewind = new RewindMenus(transcript.node, send, (text) => composer.restore(text, []));
const modes = new ModePicker(send);
const prompts = new PromptCommands(send);
const implement = new PlanImplement((text, mode) => {
  modes.pick(mode);
  composer.restore(text, []);
});
/** A slash command the person typed, or the message in the picked mode (issue 27, items 2 and 3). */
function sendMessage(text: string, attachments: Attachment[]): void {
  const run = slashRun(text, prompts.list());
  const refuse = (why: string) => {
    transcript.notice("error", why);
    composer.restore(text, attachments);
  };
  switch (run.kind) {
    case "message":
      implement.sent(modes.value());
      send({ type: "chat/send", text, ...(attachments.length ? { attachments } : {}), mode: modes.value() });
      return;
    case "new":
      send({ type: "chat/new" });
      return;
    case "compact":
      send({ type: "chat/compact" });
      return;
    case "task":
      send({ type: "chat/background", text: run.text });
      return;
    case "prompt":
      implement.sent(run.mode ?? modes.value());
      send({ type: "prompts/run", name: run.name, args: run.args, ...(attachments.length ? { attachments } : {}), mode: modes.value() });
      return;
    case "mode": {
      const problem = modes.pick(run.name);
      if (problem) refuse(problem);
      return;
    }
    case "undo": {
      // The last turn's own "Undo these edits", which asks in place which files it puts back.
      const last = [...transcript.node.querySelectorAll<HTMLElement>('[data-testid="undo-edits"]')].at(-1);
      if (last) last.click();
      else refuse("/undo: no turn of this chat has edits left to undo.");
      return;
    }
    case "refused":
      refuse(run.message);
  }
}
const composer = new Composer({
  send: sendMessage,
  requestContext: (what) => send({ type: "context/request", what }),
  stop: () => send({ type: "chat/stop" }),
  newChat: () => send({ type: "chat/new" }),
  background: (text) => send({ type: "chat/background", text }),
});
const approvals = new ApprovalCards(
  transcript.node,
  (callId, decision, alwaysAllow) => send({ type: "approval/answer", callId, decision, ...(alwaysAllow ? { alwaysAllow } : {}) }),
  (callId) => send({ type: "edit/reveal", callId }),
);
const trustBanner = document.createElement("section");
trustBanner.className = "trust-banner";
trustBanner.dataset.testid = "restricted-mode";
trustBanner.setAttribute("role", "status");
trustBanner.hidden = true;
const instructions = new InstructionsPanel(send);
composer.extend((box) => {
  const menu = new SlashMenu(box, composer.node, { prompts: () => prompts.list(), opened: () => prompts.refresh() });
  prompts.onChange = () => menu.promptsChanged();
  // Above the box, not in the toolbar: a narrow view would push Send out of sight.
  const above = document.createElement("div");
  above.append(menu.node, implement.node);
  return { aboveBox: above, inToolbar: modes.node };
});
root.replaceChildren(header.node, trustBanner, sessions.node, transcript.node, instructions.node, composer.node, announcer);

/** The chat the view shows: a long paste is measured against its context (composer.setContext). */
let currentSession: string | undefined;
window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const parsed = ToWebview.safeParse(event.data);
  if (!parsed.success) {
    console.error(`Hearth chat view: ignored a malformed message: ${parsed.error.message}`);
    return;
  }
  const message = parsed.data;
  if (instructions.hear(message)) return;
  if (undo.hear(message) || rewind.hear(message)) return;
  implement.hear(message);
  if (modes.hear(message) || prompts.hear(message)) return;
  switch (message.type) {
    case "kernel/starting":
    case "kernel/ready":
    case "kernel/error":
    case "kernel/restarting":
      header.kernel(message);
      if (message.type !== "kernel/starting")
        announce(message.type === "kernel/ready" ? "The kernel is ready." : "The kernel needs attention: see the top of the chat.");
      return;
    case "chat/loading":
      transcript.loading();
      return;
    case "chat/transcript":
      header.setSession(message.session);
      if (message.session?.sessionId !== currentSession) composer.setContext(undefined);
      currentSession = message.session?.sessionId;
      transcript.show(message.messages, {
        sessionId: message.sessionId ?? undefined,
        condensations: message.condensations,
        calls: message.calls,
        endings: message.endings,
        hasOlder: message.hasOlder,
      });
      return;
    case "chat/older":
      transcript.older(
        message.sessionId,
        message.messages,
        { calls: message.calls, endings: message.endings },
        message.hasOlder,
        message.failed,
      );
      return;
    case "session/list":
      sessions.show(message.sessions, message.currentSessionId);
      return;
    case "chat/turn":
      transcript.startTurn(message.turnId, message.message, message);
      return;
    case "context/add": {
      const refused = composer.attach(message.attachment);
      if (refused) transcript.notice("info", refused);
      return;
    }
    case "chat/event":
      transcript.event(message.turnId, message.event);
      return;
    case "chat/decision":
      transcript.decision(message.callId, message.decision);
      return;
    case "chat/notice":
      if (sessions.open) sessions.notice(message.level, message.message);
      transcript.notice(
        message.level,
        message.message,
        message.kind || message.level === "error"
          ? errorActions(message.kind ?? classifyTurnError(message.message), actions, { canCompact: transcript.hasTurns() })
          : undefined,
      );
      return;
    case "model/view":
      header.setModelSetting(message.model.setting);
      renderModel(header.modelSlot, header.modelProblem, message.model, send, actions);
      return;
    case "chat/busy":
      composer.setBusy(message.busy);
      header.setBusy(message.busy);
      return;
    case "chat/unsent":
      composer.restore(message.text, message.attachments ?? [], message.carried);
      return;
    case "chat/focus":
      composer.focus();
      return;
    case "approval/pending":
      approvals.pending(message);
      return;
    case "approval/settled":
      approvals.settled(message);
      return;
    case "edit/waiting":
      approvals.editWaiting(message);
      return;
    case "edit/decided":
      approvals.editDecided(message.callId);
      return;
    case "workspace/trust":
      renderTrustBanner(trustBanner, message.restricted, () => send({ type: "workspace/manageTrust" }));
      return;
  }
});

send({ type: "ready" });

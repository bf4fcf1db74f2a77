// The chat webview (browser bundle). It talks to the extension only through the typed messages of
// shared/protocol/webview.ts, validated on arrival and before sending.
import { z } from "zod";
import { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { Composer } from "./composer.js";
import { renderKernel } from "./kernelPanel.js";
import { renderModel } from "./modelPanel.js";
import { ApprovalCards } from "./approvalCards.js";
import { Transcript } from "./transcript.js";
import { renderTrustBanner } from "./trustBanner.js";

// The CSP forbids eval; without this zod would probe `new Function` and log a CSP violation.
z.config({ jitless: true });

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById("app")!;

function send(message: FromWebview): void {
  vscode.postMessage(FromWebview.parse(message));
}

const header = document.createElement("header");
header.className = "kernel";
const transcript = new Transcript();
const composer = new Composer({
  send: (text) => send({ type: "chat/send", text }),
  stop: () => send({ type: "chat/stop" }),
  newChat: () => send({ type: "chat/new" }),
});
const approvals = new ApprovalCards(transcript.node, (callId, decision) => send({ type: "approval/answer", callId, decision }));
const trustBanner = document.createElement("section");
trustBanner.className = "trust-banner";
trustBanner.dataset.testid = "restricted-mode";
trustBanner.setAttribute("role", "status");
trustBanner.hidden = true;
const modelPanel = document.createElement("div");
modelPanel.className = "model-panel";
root.replaceChildren(header, trustBanner, modelPanel, transcript.node, composer.node);
const restart = (): void => send({ type: "kernel/restart" });

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const parsed = ToWebview.safeParse(event.data);
  if (!parsed.success) {
    console.error(`Hearth chat view: ignored a malformed message: ${parsed.error.message}`);
    return;
  }
  const message = parsed.data;
  switch (message.type) {
    case "kernel/starting":
    case "kernel/ready":
    case "kernel/error":
    case "kernel/restarting":
      renderKernel(header, message, restart);
      return;
    case "chat/transcript":
      transcript.show(message.messages);
      return;
    case "chat/turn":
      transcript.startTurn(message.runId, message.message);
      return;
    case "chat/event":
      transcript.event(message.runId, message.event);
      return;
    case "chat/notice":
      transcript.notice(message.level, message.message);
      return;
    case "model/view":
      renderModel(modelPanel, message.model, send);
      return;
    case "chat/busy":
      composer.setBusy(message.busy);
      return;
    case "approval/pending":
      approvals.pending(message);
      return;
    case "approval/settled":
      approvals.settled(message);
      return;
    case "workspace/trust":
      renderTrustBanner(trustBanner, message.restricted, () => send({ type: "workspace/manageTrust" }));
      return;
  }
});

renderKernel(header, { type: "kernel/starting" }, restart);
send({ type: "ready" });

// The chat webview (browser bundle). It talks to the extension only through the typed messages of
// shared/protocol/webview.ts, validated on arrival and before sending.
import { z } from "zod";
import { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { renderKernel } from "./kernelPanel.js";

// The CSP forbids eval; without this zod would probe `new Function` and log a CSP violation.
z.config({ jitless: true });

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById("app")!;

function send(message: FromWebview): void {
  vscode.postMessage(FromWebview.parse(message));
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const parsed = ToWebview.safeParse(event.data);
  if (!parsed.success) {
    console.error(`Hearth chat view: ignored a malformed message: ${parsed.error.message}`);
    return;
  }
  renderKernel(root, parsed.data, () => send({ type: "kernel/restart" }));
});

renderKernel(root, { type: "kernel/starting" }, () => send({ type: "kernel/restart" }));
send({ type: "ready" });

// Renders what the extension says about the kernel: its initialize answer, that it is starting or
// restarting, or the error a person can act on.
import type { ToWebview } from "../shared/protocol/webview.js";
import { button, divider, spinner } from "./components/index.js";

function el(tag: string, text?: string, testId?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (testId) node.dataset.testid = testId;
  return node;
}

function field(list: HTMLElement, term: string, value: string, testId: string): void {
  list.append(el("dt", term), el("dd", value, testId));
}

export function renderKernel(root: HTMLElement, message: Extract<ToWebview, { type: `kernel/${string}` }>, onRestart: () => void): void {
  const section = el("section");
  section.dataset.state = message.type.replace("kernel/", "");
  section.append(el("h2", "Kernel"));
  switch (message.type) {
    case "kernel/starting":
      section.append(spinner("Starting the kernel"), el("p", "Starting the kernel…", "kernel-status"));
      break;
    case "kernel/restarting":
      section.append(
        el("p", `Restarting the kernel in ${(message.delayMs / 1000).toFixed(1)} s.`, "kernel-status"),
        el("p", message.reason, "kernel-error"),
      );
      break;
    case "kernel/error":
      section.append(el("p", message.message, "kernel-error"));
      break;
    case "kernel/ready": {
      const { info } = message;
      section.append(el("p", `The kernel ${info.kernelVersion} is ready.`, "kernel-status"));
      if (message.differences?.length) {
        // Another client started the folder's kernel with its own environment: say so, never silently.
        const warning = el("div", undefined, "kernel-differences");
        warning.append(
          el("p", `This window joined the kernel (pid ${info.kernelPid}) another client started; its settings differ from this window's:`),
          ...message.differences.map((d) => el("p", d)),
          button("Restart with this window's settings", onRestart, { id: "restart-with-settings" }),
        );
        section.append(warning);
      }
      // Folded so the chat gets the room; open it to see where the kernel works and journals.
      const details = el("details");
      details.append(el("summary", "Details"));
      const list = el("dl");
      field(list, "Kernel version", info.kernelVersion, "kernel-version");
      field(list, "Protocol", String(info.protocolVersion), "protocol-version");
      field(list, "Workspace", info.workspaceRoot, "workspace-root");
      field(list, "Journal", info.journalPath, "journal-path");
      field(list, "Process", `pid ${info.kernelPid}${message.joined ? ", started by another client" : ""}`, "kernel-pid");
      details.append(list);
      section.append(details);
      break;
    }
  }
  section.append(button("Restart kernel", onRestart, { id: "restart", secondary: true }), divider());
  root.replaceChildren(section);
}

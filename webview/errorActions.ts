// Every error with its action as a button (issue 15): what a person can do about it, next to it.
import { button } from "./components/index.js";
import { isAuthorityDrift } from "./turnStatus.js";

export interface ViewActions {
  selectModel(): void;
  compact(): void;
  continueInNewChat(): void;
  restartKernel(): void;
  showLog(): void;
}

export type ErrorKind = "kernel" | "model" | "context" | "drift" | "turn";

/** Which kind of error a message is, from what it names (a kernel or model error is known by its source). */
export function classifyTurnError(message: string): ErrorKind {
  if (isAuthorityDrift(message)) return "drift";
  if (/context|too (long|large|many tokens)|exceed/i.test(message)) return "context";
  if (/model|gguf|hf:|openai:|load/i.test(message)) return "model";
  if (/kernel|connection/i.test(message)) return "kernel";
  return "turn";
}

/** The buttons for an error of this kind; Open log always, since the log says more. */
export function errorActions(kind: ErrorKind, actions: ViewActions): HTMLElement {
  const row = document.createElement("div");
  row.className = "error-actions";
  row.dataset.testid = "error-actions";
  if (kind === "drift") row.append(button("Continue in a new chat", actions.continueInNewChat, { testId: "action-continue-new-chat" }));
  if (kind === "model") row.append(button("Select a model…", actions.selectModel, { testId: "action-select-model" }));
  if (kind === "context") row.append(button("Compact the chat", actions.compact, { testId: "action-compact" }));
  if (kind === "kernel") row.append(button("Restart the kernel", actions.restartKernel, { testId: "action-restart" }));
  row.append(button("Open the log", actions.showLog, { secondary: true, testId: "action-show-log" }));
  return row;
}

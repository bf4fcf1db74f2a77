// Which kind of error a turn's message is and what a person can do about each (issue 15): pure, so
// the choice is tested without a browser; errorActions.ts draws the buttons.
import { earlierToolsPossible, isAuthorityDrift } from "./turnStatus.js";

/** drift: the session's pinned tools or workspace changed (a tool setting, an MCP server's tool list: harness #19). */
/** toolDrift: only its tools changed, so it may also go on with its earlier ones (issue 25 item 2). */
/** modelMismatch: the chat was made with another model than the one set (issue 25 item 2), named by the notice. */
export type ErrorKind = "kernel" | "model" | "context" | "drift" | "toolDrift" | "modelMismatch" | "turn";

export type ActionName = "selectModel" | "compact" | "restartKernel" | "showLog" | "continueInNewChat" | "keepChatModel" | "keepChatTools";

/** Which kind of error a message is, from what it names (a kernel or model error is known by its source). */
export function classifyTurnError(message: string): ErrorKind {
  if (isAuthorityDrift(message)) return earlierToolsPossible(message) ? "toolDrift" : "drift";
  if (/context|too (long|large|many tokens)|exceed/i.test(message)) return "context";
  if (/model|gguf|hf:|openai:|load/i.test(message)) return "model";
  if (/kernel|connection/i.test(message)) return "kernel";
  return "turn";
}

/** The buttons for an error of this kind, first to last; Open the log always, since the log says more. */
export function actionsFor(kind: ErrorKind): { label: string; action: ActionName; testId: string; secondary?: true }[] {
  const first = {
    model: [{ label: "Select a model…", action: "selectModel" as const, testId: "action-select-model" }],
    context: [{ label: "Compact the chat", action: "compact" as const, testId: "action-compact" }],
    drift: [{ label: "Continue in a new chat", action: "continueInNewChat" as const, testId: "action-continue-new-chat" }],
    toolDrift: [
      { label: "Continue in a new chat", action: "continueInNewChat" as const, testId: "action-continue-new-chat" },
      { label: "Use the old tools for this chat", action: "keepChatTools" as const, testId: "action-keep-chat-tools" },
    ],
    modelMismatch: [
      { label: "Continue in a new chat", action: "continueInNewChat" as const, testId: "action-continue-new-chat" },
      { label: "Use this chat's model", action: "keepChatModel" as const, testId: "action-keep-chat-model" },
    ],
    kernel: [{ label: "Restart the kernel", action: "restartKernel" as const, testId: "action-restart" }],
    turn: [],
  }[kind];
  return [...first, { label: "Open the log", action: "showLog", testId: "action-show-log", secondary: true }];
}

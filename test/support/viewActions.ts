// The chat view's buttons doing nothing: for unit tests that draw errors but never click them.
import type { ViewActions } from "../../webview/errorActions.js";

const noop = () => {};

export const noViewActions: ViewActions = {
  selectModel: noop,
  compact: noop,
  restartKernel: noop,
  showLog: noop,
  continueInNewChat: noop,
  keepChatModel: noop,
  keepChatTools: noop,
};

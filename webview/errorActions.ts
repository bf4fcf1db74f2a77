// Every error with its action as a button (issue 15): what a person can do about it, next to it.
import { button } from "./components/index.js";
import { type ActionName, actionsFor, type ErrorKind } from "./errorKinds.js";

export { classifyTurnError, type ErrorKind } from "./errorKinds.js";

export type ViewActions = Record<ActionName, () => void>;

/**
 * The buttons for an error of this kind. `canCompact: false`: the chat has no earlier turn to condense,
 * so Compact could only answer "nothing to compact" and is not offered (issue 25 item 8).
 */
export function errorActions(kind: ErrorKind, actions: ViewActions, { canCompact = true } = {}): HTMLElement {
  const row = document.createElement("div");
  row.className = "error-actions";
  row.dataset.testid = "error-actions";
  for (const a of actionsFor(kind))
    if (a.action !== "compact" || canCompact) row.append(button(a.label, actions[a.action], { testId: a.testId, secondary: a.secondary }));
  return row;
}

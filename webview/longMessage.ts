// A long message of the person's (a pasted log, a trimmed paste sent whole, issue 25 item 8) is shown
// folded to its first lines, with a button that says how long it is and shows all of it: the
// transcript stays readable, and nothing of the message is hidden from the person who asks.
import { button } from "./components/index.js";

/** Lines a message shows before it folds. */
const FOLD_AFTER_LINES = 12;
/** Characters a message shows before it folds (long lines wrap into many). */
const FOLD_AFTER_CHARS = 1_500;

/** Folds `body` (the message's text) when it is long; returns the toggle to place after it, or null. */
export function foldLongMessage(body: HTMLElement, text: string): HTMLElement | null {
  const lines = text.split("\n").length;
  if (lines <= FOLD_AFTER_LINES && text.length <= FOLD_AFTER_CHARS) return null;
  const more =
    lines > FOLD_AFTER_LINES
      ? `Show all ${lines.toLocaleString("en-US")} lines`
      : `Show all ${text.length.toLocaleString("en-US")} characters`;
  body.classList.add("folded");
  const toggle = button(
    more,
    () => {
      const folded = body.classList.toggle("folded");
      toggle.textContent = folded ? more : "Show less";
    },
    { secondary: true, testId: "message-fold" },
  );
  toggle.classList.add("message-fold");
  return toggle;
}

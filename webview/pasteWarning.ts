// The warning before a send whose long paste cannot fit the chat's context (issue 25 item 8), with
// the ways out: keep the part that fits, remove the paste, or send it anyway.
import { button } from "./components/index.js";
import { el } from "./dom.js";
import type { Room } from "./longPaste.js";

export interface PasteWayOut {
  trim(keepChars: number): void;
  remove(): void;
  sendAnyway(): void;
}

/** The warning before a send that cannot fit, with the ways out. */
export function tooLongWarning(tokens: number, { room, size, used, charsPerToken }: Room, wayOut: PasteWayOut): HTMLElement {
  const warning = el("div", "paste-warning", undefined, "paste-warning");
  warning.setAttribute("role", "alert");
  warning.append(
    el(
      "p",
      undefined,
      `This message is ≈${tokens.toLocaleString("en")} tokens, and the chat has room for ≈${room.toLocaleString("en")} ` +
        `(the model reads ${size.toLocaleString("en")} tokens at once${used ? `, ${used.toLocaleString("en")} already used` : ""}). ` +
        "Sent as it is, the model would refuse it.",
    ),
  );
  const row = el("div", "paste-warning-buttons");
  row.append(
    button(`Keep the first ≈${room.toLocaleString("en")} tokens`, () => wayOut.trim(Math.floor(room * charsPerToken)), {
      testId: "paste-trim",
    }),
    button("Remove the paste", wayOut.remove, { secondary: true, testId: "paste-remove" }),
    button("Send anyway", wayOut.sendAnyway, { secondary: true, testId: "paste-send-anyway" }),
  );
  warning.append(row);
  return warning;
}

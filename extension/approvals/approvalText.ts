// What approvals say, as plain text (no `vscode` import, so it is unit-tested).
import type { ServerRequestParams } from "../../shared/protocol/index.js";

type Request = ServerRequestParams<"approval/request">;

/** A notification shows at most this much of what a call will do; longer asks are answered on the card. */
export const NOTIFY_MAX = 400;

/** Exactly what the call will do, as the kernel's preview says it (the command and its folder, the URL). */
export function askText(req: Request): string {
  return req.preview.kind === "diff" ? req.preview.diff : req.preview.text;
}

/** The notification's text, or null when the ask is too long to show there whole (then: the card). */
export function notificationText(req: Request): string | null {
  const ask = askText(req);
  return ask.length > NOTIFY_MAX ? null : `Hearth asks to run ${req.call.name}: ${ask}`;
}

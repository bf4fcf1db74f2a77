// What the approval dialog says, as plain text (no `vscode` import, so it is unit-tested).
import type { ServerRequestParams } from "../../shared/protocol/index.js";

type Request = ServerRequestParams<"approval/request">;

/** The dialog's detail is plain text; a long preview is cut (the diff editor shows it whole). */
export const DETAIL_MAX = 4000;

export function describeCall(req: Request): string {
  const args = req.call.arguments;
  const target = typeof args.path === "string" ? args.path : typeof args.command === "string" ? args.command : typeof args.url === "string" ? args.url : "";
  return singleLine(`Hearth wants to run ${req.call.name}${target ? ` on ${target}` : ""} (${req.effectClass.replace(/_/g, " ")})`, 300);
}

export function approvalDetail(req: Request): string {
  const text = req.preview.kind === "diff" ? req.preview.diff : req.preview.text;
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}\n… (${text.length - DETAIL_MAX} more characters; Show Diff shows all)` : text;
}

export function singleLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

// A tool call as a card (issue 15): its name, what it acts on (a path, a command, a URL), its state
// in the kernel's ledger, its arguments and result folded, and an error readable without unfolding.
// The card keeps class `tool-call` and `data-call-id`: approval cards (approvalCards.ts) move into it.
import type { ToolCallRecord } from "../shared/protocol/records.js";
import type { CallStates } from "../shared/protocol/webview.js";
import { codeText } from "./codeText.js";
import { el } from "./dom.js";

export type CallStatus = "prepared" | "dispatched" | "succeeded" | "failed" | "outcome_unknown";

const STATUS_TEXT: Record<CallStatus, string> = {
  prepared: "prepared",
  dispatched: "running",
  succeeded: "succeeded",
  failed: "failed",
  outcome_unknown: "outcome unknown",
};

const STATUS_HINT: Partial<Record<CallStatus, string>> = {
  prepared: "Recorded by the kernel; not run yet (it may be waiting for your approval).",
  dispatched: "Running.",
  outcome_unknown:
    "The kernel stopped while this call ran, so whether it took effect is unknown. Hearth never re-runs it by itself: check its target before asking again.",
};

/** What the call acts on, from its arguments: the first of path, command, url, pattern, query. */
export function callTarget(call: ToolCallRecord): string {
  for (const key of ["path", "command", "url", "pattern", "query", "file"]) {
    const value = call.arguments[key];
    if (typeof value === "string" && value) return value;
  }
  return "";
}

export function toolCard(call: ToolCallRecord, status: CallStatus = "prepared", reason?: string | null): HTMLElement {
  const card = el("div", "tool-call");
  card.dataset.testid = "tool-call";
  card.dataset.callId = call.callId;
  card.dataset.tool = call.name;
  card.setAttribute("role", "group");
  const target = callTarget(call);
  card.setAttribute("aria-label", `${call.name}${target ? ` ${target}` : ""}`);
  const head = el("div", "tool-head");
  const name = el("span", "tool-name", call.name);
  const where = el("span", "tool-target", target);
  where.dataset.testid = "tool-target";
  where.title = target;
  head.append(name, where, el("span", "tool-status"));
  const args = el("details", "tool-args");
  args.append(el("summary", undefined, "Arguments"), el("pre", undefined, JSON.stringify(call.arguments, null, 2)));
  card.append(head, args);
  setCallStatus(card, status, reason);
  return card;
}

/** The ledger's state of the call, with why when the ledger says (a failure, an unknown outcome). */
export function setCallStatus(card: HTMLElement, status: CallStatus, reason?: string | null): void {
  card.dataset.status = status;
  const badge = card.querySelector<HTMLElement>(".tool-status")!;
  badge.textContent = STATUS_TEXT[status];
  badge.dataset.testid = "tool-status";
  badge.className = `tool-status ${status}`;
  badge.title = [STATUS_HINT[status], reason].filter(Boolean).join(" ");
  card.querySelector(".tool-reason")?.remove();
  if (reason && (status === "failed" || status === "outcome_unknown")) {
    const why = el("div", "tool-reason", reason);
    card.querySelector(".tool-head")!.after(why);
  }
}

export type CallDecision = NonNullable<CallStates[string]["decision"]>;

const DECIDER: Record<CallDecision["decidedBy"]["kind"], string> = {
  window: "in VS Code",
  terminal: "at a terminal",
  kernel: "by Hearth",
  unnamed: "by another client",
};
const SURFACE: Record<CallDecision["surface"], string> = {
  lens: "in the file",
  card: "on this card",
  notification: "in a notification",
  terminal: "hearth task approve|deny",
  policy: "by an --approve policy",
  rule: "by a rule",
};

/** Who decided a call's approval, where and when, in plain words (issue 24): "Approved in VS Code, in the file, at 14:02". */
export function decisionText(d: CallDecision, timeZone?: string): string {
  const verb = d.decision === "approve" ? "Approved" : "Denied";
  const at = new Date(d.decidedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", ...(timeZone ? { timeZone } : {}) });
  // A person's approval rule decided (issue 27): the journal names it and where it is defined.
  if (d.surface === "rule" && d.decidedBy.kind === "kernel" && d.decidedBy.clientId !== "kernel")
    return `${verb} by rule ${d.decidedBy.clientId}, at ${at}`;
  const how = d.surface === "rule" || d.surface === "policy" ? SURFACE[d.surface] : `${DECIDER[d.decidedBy.kind]}, ${SURFACE[d.surface]}`;
  return `${verb} ${how}, at ${at}`;
}

/** Shows who decided the call's approval under its head (replacing what an earlier state said). */
export function setCallDecision(card: HTMLElement, d: CallDecision | undefined): void {
  card.querySelector(".tool-decision")?.remove();
  if (!d) return;
  // A rule's name quotes its command in backticks: drawn as code (issue 25 item 11).
  const line = codeText(el("div", `tool-decision ${d.decision}`), decisionText(d));
  line.dataset.testid = "tool-decision";
  card.querySelector(".tool-head")!.after(line);
}

/** The call's output, folded; a failure's first line stays visible so the error reads at a glance. */
export function toolResult(ok: boolean, output: string, elided = false): HTMLElement {
  const node = el("details", `tool-result ${ok ? "ok" : "failed"}`);
  node.dataset.testid = "tool-result";
  node.dataset.ok = String(ok);
  const firstLine = output.split("\n", 1)[0] ?? "";
  const summary = el(
    "summary",
    undefined,
    ok ? `Result (${output.length.toLocaleString()} characters)` : `Error: ${firstLine.slice(0, 200)}`,
  );
  node.append(summary, el("pre", undefined, output));
  if (elided) {
    const note = el("div", "tool-elided", "Condensed: the model now sees a marker instead of this output.");
    note.dataset.testid = "tool-elided";
    node.append(note);
  }
  return node;
}

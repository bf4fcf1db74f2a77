// How a turn ended, in the words its footer opens with: the status line and, where the person has
// something to do next, a hint (a loop guard's stop; an answer cut at the token cap, issue 25 item 10).
import type { MessageTooLong, TurnEvent } from "../shared/protocol/records.js";
import { codeText } from "./codeText.js";
import { el } from "./dom.js";
import { plainKernelText } from "./kernelWords.js";

export type Completed = Extract<TurnEvent, { type: "completed" }>;

/** What the status line reads of an ending: a live completion, or one read back from the journal. */
export type Ending = Pick<Completed, "status" | "stoppedAtTokenCap" | "tooLong"> & { error?: { message: string } };

/** The kernel's refusal to resume a chat whose tools or folder changed since it began (harness #19). */
export function isAuthorityDrift(message: string): boolean {
  return /authority drifted/.test(message);
}

const DRIFT_WAY_OUT = "Continue in a new chat: it carries this conversation over, and this chat stays in History.";
const KEEP_WAY_OUT = "Or use the old tools for this chat: it goes on with the tools it began with, and new chats use the tools set now.";

/** What the kernel's drift refusal names as changed (workspace, tools, enablement, ceilings). */
function driftedParts(message: string): string[] {
  return /authority drifted \(([a-z, ]+) changed since/.exec(message)?.[1]?.split(", ") ?? [];
}

/**
 * Whether only the tools changed, so the chat may go on with its earlier ones (session/keepTools):
 * never for another folder, nor for changed limits, which the kernel cannot go back to.
 */
export function earlierToolsPossible(message: string): boolean {
  const named = driftedParts(message);
  return named.length > 0 && named.every((n) => n === "tools" || n === "enablement");
}

/**
 * What a drifted chat's failure says, in plain words, instead of the kernel's: what changed, as the
 * kernel's refusal names it (tools, their settings or limits; the folder), then the ways out.
 */
export function driftText(message: string): string {
  const named = driftedParts(message);
  const changed = [
    ...(named.some((n) => n === "tools" || n === "enablement" || n === "ceilings") ? ["the tools Hearth offers"] : []),
    ...(named.includes("workspace") ? ["the folder"] : []),
  ];
  if (changed.length === 0)
    return `This chat began with other tools or another folder than Hearth has now, so it cannot go on as it was. ${DRIFT_WAY_OUT}`;
  const what = changed.join(" and ");
  // Issue 25 item 2: the tools alone changed, so the chat may also keep the ones it began with.
  if (earlierToolsPossible(message))
    return `${what[0]!.toUpperCase()}${what.slice(1)} changed since this chat began. ${DRIFT_WAY_OUT} ${KEEP_WAY_OUT}`;
  return `${what[0]!.toUpperCase()}${what.slice(1)} changed since this chat began, so it cannot go on as it was. ${DRIFT_WAY_OUT}`;
}

/** A message refused as too long for the model (issue 25 item 8), in plain words: how long, the room, and that the chat goes on. */
export function tooLongText({ messageTokens, roomTokens, contextSize }: MessageTooLong): string {
  const n = (tokens: number) => tokens.toLocaleString("en");
  return (
    `Too long for the model: this message is ${n(messageTokens)} tokens, and a message may take ${n(roomTokens)} of the ` +
    `${n(contextSize)} tokens the model reads at once (the rest holds Hearth's instructions and the answer). ` +
    "The model did not see it, and the chat goes on without it: shorten it and send it again."
  );
}

export function statusText(event: Ending): string {
  switch (event.status) {
    case "completed":
      // An answer cut at the token cap is not a finished one.
      return event.stoppedAtTokenCap ? "Stopped at the token cap: the answer is cut off" : "Completed";
    case "cancelled":
      return "Cancelled";
    case "stopped":
      return `Stopped: ${event.error ? plainKernelText(event.error.message) : "a loop guard ended the turn"}`;
    case "failed":
      if (event.tooLong) return tooLongText(event.tooLong);
      if (isAuthorityDrift(event.error?.message ?? "")) return driftText(event.error!.message);
      // The kernel's own words stay in the log (Open the log is on every failure).
      return `Failed: ${event.error ? plainKernelText(event.error.message) : "no reason given"}`;
  }
}

/** The status line, then its hint if any. */
export function turnStatus(event: Ending): HTMLElement[] {
  const status = codeText(el("div", `turn-status ${event.status}`), statusText(event));
  status.dataset.testid = "turn-status";
  status.dataset.status = event.status;
  if (event.status === "stopped") {
    // A loop guard is not a crash: say what to do next.
    status.setAttribute("role", "note");
    return [
      status,
      el(
        "div",
        "turn-hint",
        "Hearth stopped the model because it was going round in circles. Rephrase the request, or send a new message: the chat goes on.",
      ),
    ];
  }
  if (event.stoppedAtTokenCap) {
    status.dataset.cut = "token-cap";
    return [
      status,
      el(
        "div",
        "turn-hint",
        "The answer reached the most tokens one reply may use. Send “continue” to have Hearth go on from where it stopped.",
      ),
    ];
  }
  return [status];
}

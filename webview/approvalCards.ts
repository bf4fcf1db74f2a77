// Approvals answered in place (issue 14): a call waiting for the person gets Allow / Deny on its
// own card in the transcript, with exactly what it will do. The card is placed inside the call's
// card; if that card is not drawn yet (events are coalesced, or the view reloaded mid-turn), it
// waits at the end of the transcript and moves in when the call's card appears. A proposed edit is
// decided in its file, not here: its card says it waits there, with a button that shows it (issue 25 item 9).
import type { ToWebview } from "../shared/protocol/webview.js";
import { button, setEnabled } from "./components/index.js";
import { codeText } from "./codeText.js";
import { plainKernelText } from "./kernelWords.js";

type Pending = Extract<ToWebview, { type: "approval/pending" }>;
type Settled = Extract<ToWebview, { type: "approval/settled" }>;
type EditWaiting = Extract<ToWebview, { type: "edit/waiting" }>;

/** What a call may do, in plain words (issue 25 item 11: not the ledger's "non idempotent write"). */
const EFFECT_WORDS: Record<Pending["effectClass"], string> = {
  read: "it only reads",
  idempotent_write: "it writes files",
  non_idempotent_write: "it changes things, and running it twice may not be the same as once",
  network: "it reaches the network",
};

export class ApprovalCards {
  private readonly cards = new Map<string, HTMLElement>();
  private readonly observer = new MutationObserver(() => this.placeWaiting());

  constructor(
    private readonly transcript: HTMLElement,
    private readonly answer: (callId: string, decision: "approve" | "deny", alwaysAllow?: boolean) => void,
    private readonly reveal: (callId: string) => void,
  ) {
    this.observer.observe(transcript, { childList: true, subtree: true });
  }

  pending(message: Pending): void {
    this.cards.get(message.call.callId)?.remove();
    const card = document.createElement("div");
    card.className = "approval-card";
    card.dataset.testid = "approval-card";
    card.dataset.callId = message.call.callId;
    card.dataset.state = "pending";
    card.setAttribute("role", "group");
    card.setAttribute("aria-label", `Approve ${message.call.name}?`);
    const title = document.createElement("div");
    title.className = "approval-title";
    title.textContent = `Hearth asks to run ${message.call.name} (${EFFECT_WORDS[message.effectClass]}):`;
    const ask = document.createElement("pre");
    ask.className = "approval-ask";
    ask.dataset.testid = "approval-ask";
    ask.textContent = message.ask;
    const buttons = document.createElement("div");
    buttons.className = "approval-buttons";
    const decide =
      (decision: "approve" | "deny", alwaysAllow = false) =>
      () => {
        // One answer per card: every button goes off at the first click; the extension keeps the first.
        buttons.querySelectorAll<HTMLElement>("vscode-button").forEach((b) => {
          setEnabled(b, false);
        });
        this.answer(message.call.callId, decision, alwaysAllow);
      };
    const allow = button("Allow", decide("approve"));
    allow.dataset.testid = "approval-allow";
    const deny = button("Deny", decide("deny"), { secondary: true });
    deny.dataset.testid = "approval-deny";
    buttons.append(allow, deny);
    // issue 27: the narrowest rule the kernel offers for this call (exactly this command), written to .hearth/rules.json.
    if (message.alwaysAllow) {
      // The command drawn as code, never between backticks (issue 25 item 11).
      const always = button("", decide("approve", true), { secondary: true });
      const command = document.createElement("code");
      command.textContent = message.alwaysAllow;
      always.replaceChildren("Always allow ", command, " in this folder");
      always.dataset.testid = "approval-always";
      buttons.append(always);
    }
    card.append(title, ask, buttons);
    this.cards.set(message.call.callId, card);
    this.transcript.append(card);
    this.placeWaiting();
    card.scrollIntoView({ block: "end" });
  }

  settled(message: Settled): void {
    const card = this.cards.get(message.callId);
    if (!card) return;
    this.cards.delete(message.callId);
    card.dataset.state = message.decision;
    const outcome = document.createElement("div");
    outcome.className = `approval-outcome ${message.decision}`;
    outcome.dataset.testid = "approval-outcome";
    codeText(outcome, `${message.decision === "approve" ? "Allowed" : "Denied"}: ${plainKernelText(message.reason)}`);
    card.querySelector(".approval-buttons")?.replaceWith(outcome);
  }

  /** "Waiting for you in app.txt" and Show in editor, on the card of a proposed edit. */
  editWaiting(message: EditWaiting): void {
    this.cards.get(message.callId)?.remove();
    const line = document.createElement("div");
    line.className = "edit-waiting";
    line.dataset.testid = "edit-waiting";
    line.dataset.callId = message.callId;
    line.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = `Waiting for you in ${message.file}: Accept or Reject it there.`;
    const show = button("Show in editor", () => this.reveal(message.callId), { secondary: true, testId: "edit-reveal" });
    show.title = `Open ${message.file} at the proposed change`;
    line.append(text, show);
    this.cards.set(message.callId, line);
    this.transcript.append(line);
    this.placeWaiting();
  }

  /** Decided in the editor (or the turn ended): the card's state and result say what happened. */
  editDecided(callId: string): void {
    this.cards.get(callId)?.remove();
    this.cards.delete(callId);
  }

  /** Moves cards that wait at the end into their call's card once it exists. */
  private placeWaiting(): void {
    for (const [callId, card] of this.cards) {
      const call = this.transcript.querySelector<HTMLElement>(`.tool-call[data-call-id="${CSS.escape(callId)}"]`);
      if (call && card.parentElement !== call) call.append(card);
    }
  }
}

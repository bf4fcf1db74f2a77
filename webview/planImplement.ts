// "Implement this plan" (issue 27, item 2): after a Plan-mode answer, one button puts the plan into
// the message box as an Implement message (shared/implementPlan.ts) and switches the picker to Code.
// The person edits the checklist in the box and sends it: the same session, now in Code mode.
import { IMPLEMENT_MODE, implementPlanMessage } from "../shared/implementPlan.js";
import type { ToWebview } from "../shared/protocol/webview.js";
import { button } from "./components/index.js";

export class PlanImplement {
  readonly node: HTMLElement;
  /** The run of a message sent in Plan mode, once the extension names it, and its answer so far. */
  private planning = false;
  private answer = "";
  private plan = "";

  constructor(private readonly into: (text: string, mode: string) => void) {
    this.node = button("Implement this plan", () => this.implement(), { testId: "implement-plan" });
    this.node.hidden = true;
  }

  /** A message was sent: a Plan-mode one arms the button for its answer. */
  sent(mode: string): void {
    this.planning = mode === "plan";
    this.answer = "";
    this.node.hidden = true;
  }

  hear(message: ToWebview): void {
    // Another chat shown hides the button; the transcript a first message's new session sends keeps the plan armed.
    if (message.type === "chat/transcript" && !this.planning) this.node.hidden = true;
    if (message.type !== "chat/event" || !this.planning) return;
    const { event } = message;
    if (event.type === "answer_delta") this.answer += event.text;
    if (event.type !== "completed") return;
    this.planning = false;
    this.plan = this.answer.trim();
    this.node.hidden = event.status !== "completed" || this.plan === "";
  }

  private implement(): void {
    this.node.hidden = true;
    this.into(implementPlanMessage(this.plan), IMPLEMENT_MODE);
  }
}

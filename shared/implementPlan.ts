// "Implement this plan" (issue 27, item 2): a Plan-mode answer, as the person edited it, continued
// in Code mode in the same session. One definition, so the chat and `hearth exec --implement` agree
// on the message the model reads (the plan travels in it: the edited checklist, not the first draft).
export const IMPLEMENT_MODE = "code";

export function implementPlanMessage(plan: string): string {
  return `Implement this plan. Work through the steps in order and tick each one off as you finish it:\n\n${plan.trim()}`;
}

/** The session's latest answer: the plan to implement; null when the session has none. */
export function latestAnswer(messages: readonly { role: string; text?: string }[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant" && m.text !== undefined && m.text.trim() !== "") return m.text;
    if (m.role === "user") return null; // the last turn ended with no answer
  }
  return null;
}

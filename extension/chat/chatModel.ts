// A chat keeps the model it was made with (issue 25 item 2): reopening it from History or sending in
// it never swaps the loaded model behind the person's back, and switching the model says what
// becomes of the open chat. Pure words here; chatController.ts decides when they are said.
import { modelDisplayName } from "../../shared/protocol/modelView.js";
import type { SessionSummary } from "../../shared/protocol/records.js";

/** Why this chat would load another model than the one set, and the two ways on; null when they agree. */
export function modelMismatch(session: Pick<SessionSummary, "model" | "title">, setting: string): string | null {
  const chatModel = session.model.trim();
  const current = setting.trim();
  if (!chatModel || !current || chatModel === current) return null;
  return (
    `This chat was made with ${modelDisplayName(chatModel)}; Hearth now uses ${modelDisplayName(current)}. ` +
    `Sending here would load ${modelDisplayName(chatModel)} in its place. ` +
    `Continue in a new chat with ${modelDisplayName(current)} (it carries this conversation), or use ${modelDisplayName(chatModel)} for this chat.`
  );
}

/** What a model switch did to the open chat (it stays in History as it was; the conversation comes along). */
export function switchedAway(session: Pick<SessionSummary, "model" | "title">, spec: string): string {
  const title = session.title.trim() || "Untitled chat";
  return (
    `Hearth now uses ${modelDisplayName(spec)}. The chat "${title}" was made with ${modelDisplayName(session.model)} ` +
    `and stays in History as it was; this new chat uses ${modelDisplayName(spec)} and carries that conversation ` +
    "with your next message (remove the chip to start afresh)."
  );
}

// The words of the chat's rewind menu (issue 29 item 1): what each choice would do, from the kernel's
// preview, so the person reads it before picking one. Plain text, no DOM.
import type { RewindPreview, RewindRecord, RewindScope } from "../shared/protocol/rewind.js";

export interface RewindChoice {
  scope: RewindScope;
  label: string;
  /** What it would do, one line each. */
  lines: string[];
  /** Why it is not offered (nothing to do), or null. */
  disabled: string | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

export function rewindChoices(p: RewindPreview): RewindChoice[] {
  const c = p.conversation;
  const conversation = `${plural(c.messages, "message")} (${plural(c.turns, "turn")}) from here on leave the model's view; they stay in the chat, folded`;
  const files = p.files.map((f) => f.message);
  const acting = p.files.some((f) => f.outcome === "restored" || f.outcome === "removed");
  const noFiles = p.files.length === 0 ? "the turns from here on wrote no files" : acting ? null : "no file would change";
  return [
    {
      scope: "conversation",
      label: "Conversation only",
      lines: [conversation],
      disabled: c.messages === 0 ? "nothing here is in view" : null,
    },
    { scope: "files", label: "Files only", lines: files.length ? files : ["no files"], disabled: noFiles },
    { scope: "both", label: "Both", lines: [conversation, ...files], disabled: noFiles },
  ];
}

/** The fold's head: what the model no longer sees. */
export function rewoundText(r: Pick<RewindRecord, "fromSeq" | "throughSeq">, turns: number): string {
  return `Rewound: ${plural(turns, "turn")} (messages #${r.fromSeq}–#${r.throughSeq}) no longer shown to the model; kept here`;
}

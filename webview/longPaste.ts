// Long pastes (issue 25 item 8): a paste over LONG_PASTE_CHARS becomes a chip with its size and
// token estimate instead of filling the box, and a send that cannot fit the model's context is held
// with a warning and ways out (trim the paste to fit, remove it, or send anyway) before anything
// reaches the kernel, which would refuse the whole message (pasteWarning.ts).
import { formatBytes } from "../shared/byteFormat.js";
import type { ContextFill } from "../shared/protocol/records.js";
import { el } from "./dom.js";

/** A paste longer than this becomes a chip (a screenful of code is about 4,000 characters). */
export const LONG_PASTE_CHARS = 4_000;
/** About four characters a token for English and code: estimates say "≈". */
export const CHARS_PER_TOKEN = 4;
/** A new chat's context before the kernel has measured one: the local engine's default window. */
const UNKNOWN_CONTEXT_TOKENS = 8_192;
/** Room kept for the instructions, tool definitions and the answer. */
const RESERVED_TOKENS = 3_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** How many tokens a new message may take in the chat's context (its last fill, or the default window). */
export function roomFor(context: ContextFill | undefined): { room: number; size: number; used: number } {
  const size = context?.contextSize ?? UNKNOWN_CONTEXT_TOKENS;
  const used = context?.usedTokens ?? 0;
  return { room: Math.max(0, size - used - RESERVED_TOKENS), size, used };
}

/** The message as the model reads it: what was typed, then the pasted text as a fenced block. */
export function withPaste(typed: string, paste: string | undefined): string {
  if (paste === undefined) return typed;
  const fence = paste.includes("```") ? "````" : "```";
  return `${typed}\n\n${fence}\n${paste}\n${fence}`;
}

/** The chip of a long paste (or an earlier chat carried over, `what`): its lines, size and tokens, and × to remove it. */
export function pasteChip(text: string, remove: () => void, what = "Pasted text"): HTMLElement {
  const chip = el("span", "chip", undefined, "paste-chip");
  const lines = text.split("\n").length;
  const label = `${what} · ${lines.toLocaleString("en")} lines · ${formatBytes(new TextEncoder().encode(text).length)} · ≈${estimateTokens(text).toLocaleString("en")} tokens`;
  chip.append(el("span", "chip-label", label));
  chip.title = text.slice(0, 300);
  const x = el("button", "chip-remove", "×", "chip-remove");
  (x as HTMLButtonElement).type = "button";
  x.setAttribute("aria-label", `Remove ${what.toLowerCase()} from the message`);
  x.addEventListener("click", remove);
  chip.append(x);
  return chip;
}

// Long pastes (issue 25 item 8): a paste over LONG_PASTE_CHARS becomes a chip with its size and
// token estimate instead of filling the box, and a send that cannot fit the model's context is held
// with a warning and ways out (trim the paste to fit, remove it, or send anyway) before anything
// reaches the kernel, which would refuse the whole message (pasteWarning.ts).
import { formatBytes } from "../shared/byteFormat.js";
import type { ContextFill, MessageTooLong } from "../shared/protocol/records.js";
import { el } from "./dom.js";

/** A paste longer than this becomes a chip (a screenful of code is about 4,000 characters). */
export const LONG_PASTE_CHARS = 4_000;
/** About four characters a token for English and code: estimates say "≈". */
export const CHARS_PER_TOKEN = 4;
/** A new chat's context before the kernel has measured one: the local engine's default window. */
const UNKNOWN_CONTEXT_TOKENS = 8_192;
/** Room kept for the instructions, tool definitions and the answer. */
const RESERVED_TOKENS = 3_000;

export function estimateTokens(text: string, charsPerToken = CHARS_PER_TOKEN): number {
  return Math.ceil(text.length / charsPerToken);
}

/**
 * What the model measured when it refused a message of this chat as too long (issue 25 item 8): the
 * room a message has, and how many characters that message had a token. It replaces the estimate.
 */
export interface MeasuredRoom {
  roomTokens: number;
  contextSize: number;
  charsPerToken: number;
}

/** Kept back from a measured room: a long chat's summary of earlier turns takes some of it, and a cut text has its own ratio. */
const MEASURED_MARGIN = 0.9;

/** The room a refusal measured, from the refused message and its numbers. */
export function measuredRoom(message: string, tooLong: MessageTooLong): MeasuredRoom {
  return {
    roomTokens: Math.floor(tooLong.roomTokens * MEASURED_MARGIN),
    contextSize: tooLong.contextSize,
    charsPerToken: message.length / Math.max(1, tooLong.messageTokens),
  };
}

/** The room a new message has: `used` is what the chat already fills, absent once the model measured the room itself. */
export interface Room {
  room: number;
  size: number;
  used?: number;
  charsPerToken: number;
}

/** How many tokens a new message may take in the chat's context: as the model measured it, else its last fill or the default window. */
export function roomFor(context: ContextFill | undefined, measured?: MeasuredRoom): Room {
  if (measured) return { room: measured.roomTokens, size: measured.contextSize, charsPerToken: measured.charsPerToken };
  const size = context?.contextSize ?? UNKNOWN_CONTEXT_TOKENS;
  const used = context?.usedTokens ?? 0;
  return { room: Math.max(0, size - used - RESERVED_TOKENS), size, used, charsPerToken: CHARS_PER_TOKEN };
}

/** The message as the model reads it: what was typed, then the pasted text as a fenced block. */
export function withPaste(typed: string, paste: string | undefined): string {
  if (paste === undefined) return typed;
  const fence = paste.includes("```") ? "````" : "```";
  return `${typed}\n\n${fence}\n${paste}\n${fence}`;
}

/** The typed text and the paste of a message withPaste made (a message given back to the box); else all of it typed. */
export function splitPaste(message: string): { typed: string; paste?: string } {
  const m = /^([\s\S]*?)\n\n(````?)\n([\s\S]*)\n\2$/.exec(message) ?? /^()(````?)\n([\s\S]*)\n\2$/.exec(message);
  return m && m[3]!.length > LONG_PASTE_CHARS ? { typed: m[1]!, paste: m[3]! } : { typed: message };
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

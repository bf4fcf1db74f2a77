// The kernel's refusals in the words of the chat (issue 25 item 11: "compact the session", "authority
// drifted" and failure kinds such as model_failed reached people). The kernel speaks to every client
// (the CLI's word is "session"), so the chat view translates what it shows; the log keeps the
// kernel's own text ("Open the log" is on every error). Pure, so it is unit-tested.
import { TURN_FAILURE_KINDS } from "../shared/turnFailureKinds.js";

/** A failure's kind, as the kernel prefixes a turn's error (turnService.ts): the status line says "Failed" already. */
const KIND_PREFIX = new RegExp(`^(${TURN_FAILURE_KINDS.join("|")}): `);

/** Whole phrases first (their plain form is more than a word swap), then the words left over. */
const PHRASES: [RegExp, string][] = [
  [/\bthe model round failed: /g, "the model could not answer: "],
  [/\bcompact the session\b/g, "compact the chat"],
  [
    /\bthis session is already running a turn; wait for it to finish or cancel it\b/g,
    "this chat is already answering; wait for it to finish or press Stop",
  ],
  [/\bcompleted tool batches stay in the session, ask it to finish\b/g, "the tool calls it made stay in the chat; ask it to finish"],
  [/\brebuild the session from its journal\b/g, "reload this chat from History"],
  [/\bthe session journal failed\b/g, "Hearth could not record this chat"],
  [/\bthe agent harness\b/g, "Hearth"],
  [/\bmodel sessions\b/g, "chats"],
  [/\bthe number of sessions\b/g, "the number of chats that may answer at once"],
  [/\bnon[ _]idempotent\b/g, "not safe to repeat"],
];

const WORDS: [RegExp, string][] = [
  [/\bsessions\b/g, "chats"],
  [/\bsession\b/g, "chat"],
  [/\bSession\b/g, "Chat"],
  [/\bharness\b/g, "Hearth"],
  [/\bledger\b/g, "record of tool calls"],
  [/\bauthority\b/g, "permission"],
  [/\bidempotent\b/g, "safe to repeat"],
];

/**
 * `message` as the chat shows it: no failure kind, no internal words. A name quoted in backticks (a
 * file, a command such as `hearth sessions`) is kept as it is, for codeText to draw.
 */
export function plainKernelText(message: string): string {
  return message
    .replace(KIND_PREFIX, "")
    .split(/(`+[^`\n]+?`+)/)
    .map((part, i) => (i % 2 === 1 ? part : [...PHRASES, ...WORDS].reduce((text, [from, to]) => text.replace(from, to), part)))
    .join("");
}

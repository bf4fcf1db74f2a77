// What a run is shown as project instructions (issue 27, item 1): the instruction files found in the
// workspace and the person's own rules, less what the person turned off, within a bound on all of
// them, rendered as one block of the system prompt. Pure and deterministic: the same files give the
// same bytes, so the prompt's prefix (and the saved KV state of a session, issue 6) stays reusable.
import { type InstructionSource, type InstructionsInForce, PERSONAL_INSTRUCTIONS_KEY } from "../../../shared/protocol/instructions.js";
import type { FoundInstruction, InstructionScan } from "../../tools/instructionFiles.js";
import { INSTRUCTION_LIMITS } from "../../tools/instructionFiles.js";

/** Bytes of instructions a run is shown in all (Codex's default for AGENTS.md is 32 KiB). */
export const TOTAL_INSTRUCTION_BYTES = 32 << 10;

/** The instructions pinned for one run: the list a person sees, and the text the model sees. */
export interface PinnedInstructions {
  inForce: InstructionsInForce;
  /** The block appended to the system prompt; "" when nothing is shown. */
  text: string;
}

export interface InstructionInputs {
  scan: InstructionScan;
  /** The person's own rules (hearth.instructions.personal); "" for none. */
  personal: string;
  /** Paths (and PERSONAL_INSTRUCTIONS_KEY) the person turned off. */
  disabled: ReadonlySet<string>;
  /** The folder is not trusted (Restricted Mode): its files may be written to steer the agent, so none is shown. */
  restricted: boolean;
}

const estimateTokens = (bytes: number) => Math.ceil(bytes / 4);

export function pinInstructions(inputs: InstructionInputs): PinnedInstructions {
  const personalBytes = Buffer.byteLength(inputs.personal);
  const personal: FoundInstruction[] =
    inputs.personal.trim() === ""
      ? []
      : [
          {
            path: PERSONAL_INSTRUCTIONS_KEY,
            origin: "agents",
            scope: "",
            text: cutToBytes(inputs.personal, INSTRUCTION_LIMITS.perFileBytes),
            bytes: personalBytes,
            cut: personalBytes > INSTRUCTION_LIMITS.perFileBytes,
          },
        ];
  let left = TOTAL_INSTRUCTION_BYTES;
  const sources: InstructionSource[] = [];
  const sections: string[] = [];
  // The person's rules come last: read after the project's, they have the last word.
  for (const [found, isPersonal] of [...inputs.scan.files.map((f) => [f, false] as const), ...personal.map((f) => [f, true] as const)]) {
    const enabled = !inputs.disabled.has(found.path);
    const base = {
      path: found.path,
      origin: isPersonal ? ("person" as const) : found.origin,
      scope: found.scope,
      enabled,
      bytes: found.bytes,
    };
    const problem =
      found.problem ?? (inputs.restricted && !isPersonal ? "not shown: the folder is not trusted (Restricted Mode)" : undefined);
    if (!enabled || problem !== undefined || found.text === null || found.text.trim() === "") {
      sources.push({ ...base, shownBytes: 0, cut: null, tokens: 0, ...(problem ? { problem } : {}) });
      continue;
    }
    const shown = cutToBytes(found.text, left);
    left -= Buffer.byteLength(shown);
    const cut = shown.length < found.text.length ? "total" : found.cut ? "file" : null;
    const section = renderSection(found, isPersonal, shown, cut);
    sources.push({
      ...base,
      shownBytes: Buffer.byteLength(shown),
      cut,
      tokens: shown === "" ? 0 : estimateTokens(Buffer.byteLength(section)),
    });
    if (shown !== "") sections.push(section);
  }
  const text = sections.length === 0 ? "" : [PREAMBLE, ...sections].join("\n\n");
  return {
    inForce: {
      sources,
      notes: [...inputs.scan.notes],
      tokens: text === "" ? 0 : estimateTokens(Buffer.byteLength(text)),
      bounds: { perFileBytes: INSTRUCTION_LIMITS.perFileBytes, totalBytes: TOTAL_INSTRUCTION_BYTES },
    },
    text,
  };
}

/** The system prompt a run is given: the session's own, then the instructions pinned for it. */
export function withInstructions(systemPrompt: string, pinned: { text: string } | undefined): string {
  return pinned && pinned.text !== "" ? `${systemPrompt}\n\n${pinned.text}` : systemPrompt;
}

// Short: it is paid for on every turn (issue 25 item 10 trims the first prompt).
const PREAMBLE =
  "# Instructions for this workspace\n" +
  "Follow these. Where two disagree the later wins: a sub-folder's file for the files beneath it, the person's own rules over the project's.";

function renderSection(found: FoundInstruction, isPersonal: boolean, shown: string, cut: "file" | "total" | null): string {
  const title = isPersonal
    ? "## The person's own rules"
    : found.scope === ""
      ? `## ${found.path}`
      : `## ${found.path} (applies to files under ${found.scope}/)`;
  const said =
    cut === null
      ? ""
      : `\n[Hearth cut ${found.path} here: it has ${found.bytes} bytes, the first ${Buffer.byteLength(shown)} are shown ` +
        `(${cut === "file" ? `${INSTRUCTION_LIMITS.perFileBytes} bytes per file` : `${TOTAL_INSTRUCTION_BYTES} bytes for all instructions`}).]`;
  return `${title}\n${shown.trimEnd()}${said}`;
}

/** The longest prefix of `text` within `maxBytes` of UTF-8, never splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  if (maxBytes <= 0) return "";
  const bytes = Buffer.from(text).subarray(0, maxBytes);
  return new TextDecoder("utf-8").decode(bytes, { stream: true });
}

// Context from other files for completions as you type (issue 31, llama.vscode's ring): a bounded ring of
// chunks of the files a person recently edited, saved and opened, sent with each completion and placed by
// the kernel before the prefix. The ring changes only on those events, never per keystroke, and keeps its
// order (a new chunk goes last, the oldest leaves first), so between keystrokes the prompt's head is the
// same and its cached tokens are reused. Pure: inlineCompletions.ts feeds it the editor's events.
import { COMPLETION_CHUNK_CHARS, COMPLETION_CHUNKS } from "../../shared/protocol/methods.js";

/** Lines of a file in one chunk, centred on the line picked (llama.vscode takes 64; a small model's context is short). */
export const CHUNK_LINES = 32;
/** A chunk this similar to one in the ring (the share of its lines the other has) replaces it: the same code, edited. */
const SAME_CODE = 0.9;

export interface Chunk {
  filename: string;
  text: string;
}

/** The share of `a`'s lines that `b` also has, and the reverse, the smaller (llama.vscode's chunk_sim). */
function similarity(a: string, b: string): number {
  const la = a.split("\n");
  const lb = b.split("\n");
  const inB = new Set(lb);
  const common = la.filter((l) => inB.has(l)).length;
  return (2 * common) / (la.length + lb.length);
}

export class ChunkRing {
  private ring: Chunk[] = [];

  constructor(private readonly max = COMPLETION_CHUNKS) {}

  /**
   * Takes the CHUNK_LINES lines of `text` around `line` into the ring, unless an identical chunk is in
   * already (its place kept) or the lines are blank. A chunk of the same code edited replaces its older
   * version; past `max` chunks the oldest leaves.
   */
  pick(filename: string, text: string, line: number): void {
    const lines = text.split("\n");
    const from = Math.max(0, Math.min(line - CHUNK_LINES / 2, lines.length - CHUNK_LINES));
    const chunk = `${lines.slice(from, from + CHUNK_LINES).join("\n")}\n`.slice(0, COMPLETION_CHUNK_CHARS);
    if (chunk.trim() === "" || this.ring.some((c) => c.filename === filename && c.text === chunk)) return;
    this.ring = this.ring.filter((c) => similarity(c.text, chunk) <= SAME_CODE);
    this.ring.push({ filename, text: chunk });
    if (this.ring.length > this.max) this.ring.splice(0, this.ring.length - this.max);
  }

  /** The chunks for a completion in `filename`, oldest first; that file's own are left out (its window is sent already). */
  for(filename: string): Chunk[] {
    return this.ring.filter((c) => c.filename !== filename);
  }
}

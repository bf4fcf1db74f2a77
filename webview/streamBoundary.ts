// Where a streaming answer can be cut so that its head renders once and only its tail re-renders
// (issue 15: a 2,000-token answer must re-render as fast as the model decodes). A cut is safe after a
// blank line outside a code fence when the next line starts a new block: not indented (an indented
// line continues a list item or is indented code) and not a list item (a loose list would split in
// two). The completed answer is always rendered whole, so a rare difference lasts only while it streams.
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])(\s|$)/;

/** The length of the longest prefix of `text` that can render apart from the rest (0: none). */
export function stableBoundary(text: string): number {
  let inFence: string | null = null;
  let boundary = 0;
  let previousBlank = false;
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\n", at);
    // The last line is unfinished: it may still become anything.
    if (end === -1) break;
    const line = text.slice(at, end);
    const fence = FENCE.exec(line)?.[1];
    if (inFence === null && previousBlank && line.trim() !== "" && !/^\s/.test(line) && !LIST_ITEM.test(line)) boundary = at;
    if (fence && (inFence === null || (fence[0] === inFence[0] && fence.length >= inFence.length)))
      inFence = inFence === null ? fence : null;
    previousBlank = inFence === null && line.trim() === "";
    at = end + 1;
  }
  return boundary;
}

// An attachment as a chip (issue 15 item 5; issue 29 item 3): its label, its size where known (the
// text it carries before sending, what the kernel read once sent) and a title that says what it is.
// Apart from the components so it tests without the toolkit.
import { formatBytes } from "../shared/byteFormat.js";
import { type Attachment, attachmentLabel, attachmentSize } from "../shared/protocol/attachments.js";
import { el } from "./dom.js";

/** Chips of a sent message (in the transcript): what was attached, not removable. */
export function attachmentChips(attachments: readonly Attachment[], bytes?: readonly number[]): HTMLElement {
  const row = el("div", "chips", undefined, "message-chips");
  row.setAttribute("aria-label", "Attached context");
  attachments.forEach((a, i) => row.append(attachmentChip(a, bytes?.[i])));
  return row;
}

/** One attachment's chip: its label (kind first for the editor's context and a folder) and its size where known. */
export function attachmentChip(a: Attachment, bytes?: number): HTMLElement {
  const node = el("span", "chip", undefined, "context-chip");
  // No icon glyphs: a webview may lack the font for them. A selection's label carries its lines.
  node.append(el("span", "chip-label", attachmentLabel(a)));
  // issue 29 item 3: a chip shows its size: what the kernel read once sent, the text it carries before.
  // A web page's size is its fetch's: the result's card shows it, the chip has none.
  const size = a.kind === "url" ? undefined : bytes !== undefined ? formatBytes(bytes) : attachmentSize(a);
  if (size) node.append(el("span", "chip-size", size, "chip-size"));
  node.title = chipTitle(a) + (size ? ` (${size})` : "");
  node.dataset.kind = a.kind;
  return node;
}

function chipTitle(a: Attachment): string {
  switch (a.kind) {
    case "selection":
      return `Lines ${a.startLine}-${a.endLine} of ${a.path}`;
    case "resource":
      return `The resource ${a.path} of MCP server "${a.server}"`;
    case "folder":
      return `A listing of the folder ${a.path}, read by Hearth when you send`;
    case "problems":
      return a.path === "workspace" ? "The workspace's problems, as the editor listed them" : `The problems of ${a.path}`;
    case "terminal":
      return `The last command in the terminal "${a.path}" and its output`;
    case "changes":
      return `The working tree's changes (git diff) of ${a.path}`;
    case "url":
      return `The web page ${a.path}, fetched with web_fetch when the message is sent (it asks first)`;
    default:
      return `The file ${a.path}`;
  }
}

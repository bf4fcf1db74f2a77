// Context for the next message (issue 15 item 5): the current file, the selection, or a file picked
// with @ (or its button), shown as chips a person can remove before sending. The view only names
// places; the extension checks them and the kernel reads them through its anchored tools.
import { type Attachment, attachmentLabel, attachmentSize, MAX_ATTACHMENTS } from "../shared/protocol/attachments.js";
import { iconButton } from "./components/index.js";
import { el } from "./dom.js";

export type ContextRequest = "file" | "selection" | "pick";

/** Chips of a sent message (in the transcript): what was attached, not removable. */
export function attachmentChips(attachments: readonly Attachment[]): HTMLElement {
  const row = el("div", "chips", undefined, "message-chips");
  row.setAttribute("aria-label", "Attached context");
  for (const a of attachments) row.append(chip(a));
  return row;
}

function chip(a: Attachment): HTMLElement {
  const node = el("span", "chip", undefined, "context-chip");
  // No icon glyphs: a webview may lack the font for them. A selection's label carries its lines.
  node.append(el("span", "chip-label", attachmentLabel(a)));
  // issue 29 item 3: the editor's context says how much it sends (the kernel reads files and folders itself).
  const size = attachmentSize(a);
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
    default:
      return `The file ${a.path}`;
  }
}

export class ContextChips {
  readonly node = el("div", "context-bar");
  private readonly chips = el("div", "chips", undefined, "composer-chips");
  private items: Attachment[] = [];

  /** The attach buttons, as icons: the composer places them in its toolbar (issue 25 item 3). */
  readonly buttons = el("div", "context-buttons");

  constructor(request: (what: ContextRequest) => void) {
    this.chips.setAttribute("aria-label", "Context for the next message");
    this.buttons.append(
      iconButton("file-add", "Attach the current file", () => request("file"), { testId: "attach-file" }),
      iconButton("selection", "Attach the selected lines", () => request("selection"), { testId: "attach-selection" }),
      iconButton("mention", "Attach context: problems, terminal, changes, a folder or a file", () => request("pick"), {
        testId: "attach-pick",
        keys: "@",
      }),
    );
    this.node.append(this.chips);
    this.render();
  }

  /** Adds a chip; the same place twice is one chip; over MAX_ATTACHMENTS says so. Null, or why not. */
  add(a: Attachment): string | null {
    if (this.items.some((b) => attachmentLabel(b) === attachmentLabel(a) && b.kind === a.kind)) return null;
    if (this.items.length >= MAX_ATTACHMENTS)
      return `A message takes at most ${MAX_ATTACHMENTS} attachments: remove one (its ×) before adding ${attachmentLabel(a)}.`;
    this.items.push(a);
    this.render();
    return null;
  }

  get attachments(): Attachment[] {
    return [...this.items];
  }

  clear(): void {
    this.items = [];
    this.render();
  }

  private render(): void {
    this.node.hidden = this.items.length === 0;
    this.chips.replaceChildren(
      ...this.items.map((a, i) => {
        const node = chip(a);
        const remove = el("button", "chip-remove", "×", "chip-remove");
        (remove as HTMLButtonElement).type = "button";
        remove.setAttribute("aria-label", `Remove ${attachmentLabel(a)} from the message`);
        remove.addEventListener("click", () => {
          this.items.splice(i, 1);
          this.render();
        });
        node.append(remove);
        return node;
      }),
    );
  }
}

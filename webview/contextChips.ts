// Context for the next message (issue 15 item 5): the current file, the selection, or a file picked
// with @ (or its button), shown as chips a person can remove before sending. The view only names
// places; the extension checks them and the kernel reads them through its anchored tools.
import { type Attachment, attachmentLabel, MAX_ATTACHMENTS } from "../shared/protocol/attachments.js";
import { attachmentChip } from "./attachmentChip.js";
import { iconButton } from "./components/index.js";
import { el } from "./dom.js";

export type ContextRequest = "file" | "selection" | "pick";

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
        const node = attachmentChip(a);
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

// The project instructions the next turn is shown (issue 27, item 1), above the message box: a
// summary line (which files, what they cost of the context) that opens to one switch per source.
// A switch applies from the next message; the list is asked for again whenever it may have changed
// (the view loaded, a turn ended, the folder's trust changed), since the files live in the workspace.
import type { InstructionSource, InstructionsInForce } from "../shared/protocol/instructions.js";
import type { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { el } from "./dom.js";

export class InstructionsPanel {
  readonly node = el("details", "instructions", undefined, "instructions") as HTMLDetailsElement;
  private readonly summary = el("summary", "instructions-summary", undefined, "instructions-summary");
  private readonly body = el("div", "instructions-body");

  constructor(private readonly send: (message: FromWebview) => void) {
    this.node.hidden = true;
    this.node.append(this.summary, this.body);
  }

  /** Handles the view's messages that concern instructions; true when the message was one of its own. */
  hear(message: ToWebview): boolean {
    switch (message.type) {
      case "instructions/list":
        this.show(message.inForce, message.error);
        return true;
      case "chat/transcript":
      case "workspace/trust":
        this.send({ type: "instructions/refresh" });
        return false;
      case "chat/event":
        if (message.event.type === "completed") this.send({ type: "instructions/refresh" });
        return false;
      default:
        return false;
    }
  }

  private show(inForce: InstructionsInForce | null, error: string | undefined): void {
    if (!inForce) {
      this.node.hidden = error === undefined;
      this.summary.textContent = "Instructions: unknown";
      this.body.replaceChildren(el("p", "instructions-error", error ?? ""));
      return;
    }
    this.node.hidden = inForce.sources.length === 0;
    const on = inForce.sources.filter((s) => s.enabled && s.shownBytes > 0);
    this.summary.textContent =
      on.length === 0 ? "Instructions: none in force" : `Instructions: ${on.map(label).join(", ")} · ~${inForce.tokens} tokens`;
    const list = el("ul", "instructions-list");
    list.append(...inForce.sources.map((s) => this.row(s)));
    const notes = inForce.notes.map((n) => el("p", "instructions-note", n));
    const heading = inForce.tokens - on.reduce((n, s) => n + s.tokens, 0);
    if (on.length > 0 && heading > 0)
      notes.push(el("p", "instructions-note", `~${heading} tokens of the total are Hearth's heading for them.`));
    const applies = el(
      "p",
      "instructions-note",
      "A change applies from your next message; a turn already running keeps what it was given.",
    );
    this.body.replaceChildren(list, ...notes, applies);
  }

  private row(s: InstructionSource): HTMLElement {
    const item = el("li", "instructions-item", undefined, "instructions-item");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = s.enabled;
    box.dataset.path = s.path;
    box.addEventListener("change", () => this.send({ type: "instructions/set", path: s.path, enabled: box.checked }));
    const name = el("label", "instructions-path");
    name.append(box, document.createTextNode(` ${label(s)}`));
    item.append(name, el("span", "instructions-state", state(s)));
    return item;
  }
}

function label(s: InstructionSource): string {
  return s.origin === "person" ? "your own rules" : s.path;
}

/** What the model gets of the source, in words: its cost, where it applies, what was cut and why. */
export function state(s: InstructionSource): string {
  if (!s.enabled) return "off";
  if (s.problem) return s.problem;
  const parts = [`~${s.tokens} tokens`];
  if (s.scope) parts.push(`for files under ${s.scope}/`);
  if (s.cut === "file") parts.push(`cut to its first ${s.shownBytes} of ${s.bytes} bytes`);
  if (s.cut === "total")
    parts.push(
      s.shownBytes === 0
        ? "left out: the bound on all instructions was reached"
        : `cut to ${s.shownBytes} of ${s.bytes} bytes: the bound on all instructions`,
    );
  return parts.join(" · ");
}

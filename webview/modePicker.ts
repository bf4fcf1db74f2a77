// The composer's mode picker (issue 27, item 2): the mode the next message is sent in. Code is the
// default; Ask and Plan change nothing; the workspace's .hearth/modes add their own. The list is asked
// for again whenever it may have changed (the view loaded, a turn ended, the folder's trust changed);
// a mode that is gone from the list falls back to Code, never to a wider one the person did not pick.
import type { ModeView } from "../shared/protocol/modes.js";
import type { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { el } from "./dom.js";

const CODE: ModeView = { name: "code", description: "Reads, edits and runs commands", tools: ["*"], source: "built-in" };

export class ModePicker {
  readonly node = el("label", "mode-picker", undefined, "mode-picker");
  private readonly select = document.createElement("select");
  private modes: readonly ModeView[] = [CODE];

  constructor(private readonly send: (message: FromWebview) => void) {
    this.select.setAttribute("aria-label", "Mode for the next message");
    this.select.dataset.testid = "mode-select";
    this.select.addEventListener("change", () => this.describe());
    this.node.append(this.select);
    this.render("code");
  }

  /** The mode the next message goes in. */
  value(): string {
    return this.select.value || "code";
  }

  /** `/mode NAME`: picks it; an error, in words, when there is no such mode. */
  pick(name: string): string | null {
    if (!this.modes.some((m) => m.name === name))
      return `There is no mode “${name}”. The modes are ${this.modes.map((m) => m.name).join(", ")}; add one as .hearth/modes/${name}.md.`;
    this.select.value = name;
    this.describe();
    return null;
  }

  names(): ModeView[] {
    return [...this.modes];
  }

  hear(message: ToWebview): boolean {
    switch (message.type) {
      case "modes/list":
        this.modes = message.list?.modes.length ? message.list.modes : [CODE];
        this.render(this.value());
        if (message.error) this.select.title = message.error;
        return true;
      case "chat/transcript":
      case "workspace/trust":
        this.send({ type: "modes/refresh" });
        return false;
      case "chat/event":
        if (message.event.type === "completed") this.send({ type: "modes/refresh" });
        return false;
      default:
        return false;
    }
  }

  private render(keep: string): void {
    this.select.replaceChildren(
      ...this.modes.map((m) => {
        const option = document.createElement("option");
        option.value = m.name;
        option.textContent = label(m.name);
        option.title = m.description;
        return option;
      }),
    );
    this.select.value = this.modes.some((m) => m.name === keep) ? keep : "code";
    this.describe();
  }

  private describe(): void {
    const mode = this.modes.find((m) => m.name === this.value());
    this.select.title = mode ? `${label(mode.name)}: ${mode.description} (offers ${mode.tools.join(", ")})` : "";
    this.node.dataset.mode = this.value();
  }
}

function label(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

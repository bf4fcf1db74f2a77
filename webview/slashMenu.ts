// The list of slash commands shown as you type `/` at the start of the message box (issue 27, item
// 3): ArrowUp/ArrowDown move, Enter or Tab picks (the box then reads `/name `), Escape closes it.
// Its keys are taken in the capture phase so Enter picks a command instead of sending the message.
import type { TextBox } from "./composer.js";
import { el } from "./dom.js";
import { type SlashCommand, slashMatches, slashQuery } from "./slashCommands.js";

export class SlashMenu {
  readonly node = el("ul", "slash-menu", undefined, "slash-menu");
  private shown: SlashCommand[] = [];
  private active = 0;

  constructor(
    private readonly box: TextBox,
    keysFrom: HTMLElement,
  ) {
    this.node.setAttribute("role", "listbox");
    this.node.setAttribute("aria-label", "Slash commands");
    this.node.id = "slash-menu";
    this.node.hidden = true;
    box.addEventListener("input", () => this.update());
    box.addEventListener("blur", () => this.close());
    keysFrom.addEventListener("keydown", (e) => this.onKey(e), { capture: true });
  }

  private update(): void {
    const prefix = slashQuery(this.box.value);
    this.shown = prefix === null ? [] : slashMatches(prefix);
    this.active = 0;
    this.render();
  }

  private close(): void {
    this.shown = [];
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    if (this.shown.length === 0 || e.target !== this.box || e.isComposing) return;
    const move = e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
    if (move !== 0) this.active = (this.active + move + this.shown.length) % this.shown.length;
    else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") this.pick(this.shown[this.active]!);
    else if (e.key === "Escape") this.close();
    else return;
    e.preventDefault();
    e.stopPropagation();
    if (move !== 0) this.render();
  }

  private pick(command: SlashCommand): void {
    this.box.value = `/${command.name}${command.args ? " " : ""}`;
    this.box.control?.setSelectionRange(this.box.value.length, this.box.value.length);
    this.close();
    // A command that takes nothing is complete: the next Enter runs it.
  }

  private render(): void {
    this.node.hidden = this.shown.length === 0;
    this.box.setAttribute("aria-expanded", String(this.shown.length > 0));
    this.node.replaceChildren(
      ...this.shown.map((c, i) => {
        const item = el("li", i === this.active ? "slash-item active" : "slash-item", undefined, "slash-item");
        item.id = `slash-${c.name}`;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", String(i === this.active));
        item.append(el("span", "slash-name", `/${c.name}${c.args ? ` ${c.args}` : ""}`), el("span", "slash-hint", c.hint));
        // mousedown, not click: the box keeps the focus (its blur would close the list first).
        item.addEventListener("mousedown", (e) => {
          e.preventDefault();
          this.pick(c);
        });
        return item;
      }),
    );
    if (this.shown.length > 0) this.box.setAttribute("aria-activedescendant", `slash-${this.shown[this.active]!.name}`);
    else this.box.removeAttribute("aria-activedescendant");
  }
}

// The list of slash commands shown as you type `/` at the start of the message box (issue 27, item
// 3): ArrowUp/ArrowDown move, Enter or Tab picks (the box then reads `/name `), Escape closes it.
// Its keys are taken in the capture phase so Enter picks a command instead of sending the message.
// The workspace's prompt files follow the built-in commands; opening the list asks for them again
// (`opened`), and a list that arrives while it is open is shown at once (`update`).
import type { TextBox } from "./composer.js";
import { el } from "./dom.js";
import { SLASH_COMMANDS, type SlashCommand, slashMatches, slashQuery } from "./slashCommands.js";

export interface SlashSources {
  /** The prompt files as last listed (promptCommands). */
  prompts(): readonly SlashCommand[];
  /** The list opened: a prompt file may have changed since it was last listed. */
  opened(): void;
}

export class SlashMenu {
  readonly node = el("ul", "slash-menu", undefined, "slash-menu");
  private shown: SlashCommand[] = [];
  private active = 0;
  /** The box holds a command being typed (`/` at its start, no space yet). */
  private typing = false;

  constructor(
    private readonly box: TextBox,
    keysFrom: HTMLElement,
    private readonly sources: SlashSources = { prompts: () => [], opened: () => undefined },
  ) {
    this.node.setAttribute("role", "listbox");
    this.node.setAttribute("aria-label", "Slash commands");
    this.node.id = "slash-menu";
    this.node.hidden = true;
    box.addEventListener("input", () => this.update());
    box.addEventListener("blur", () => this.close());
    keysFrom.addEventListener("keydown", (e) => this.onKey(e), { capture: true });
  }

  /** The prompt files were listed again: the open list shows them, the same command staying picked. */
  promptsChanged(): void {
    if (!this.typing) return; // closed (picked, Escape, blur): a list arriving later does not reopen it
    const picked = this.shown[this.active];
    this.match();
    const again = picked ? this.shown.findIndex((c) => c.name === picked.name && c.source === picked.source) : -1;
    this.active = Math.max(0, again);
    this.render();
  }

  private update(): void {
    const typing = slashQuery(this.box.value) !== null;
    if (typing && !this.typing) this.sources.opened();
    this.typing = typing;
    this.match();
    this.active = 0;
    this.render();
  }

  private match(): void {
    const prefix = slashQuery(this.box.value);
    this.shown = prefix === null ? [] : slashMatches(prefix, [...SLASH_COMMANDS, ...this.sources.prompts()]);
  }

  private close(): void {
    this.typing = false;
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
        const kind = c.source === undefined ? "slash-item" : c.problem ? "slash-item prompt broken" : "slash-item prompt";
        const item = el("li", i === this.active ? `${kind} active` : kind, undefined, "slash-item");
        item.id = `slash-${i}`;
        // A problem is shown on one line in the list; the whole of it, or the file, on hover.
        if (c.source) item.title = c.problem ?? c.source;
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
    if (this.shown.length > 0) {
      this.box.setAttribute("aria-activedescendant", `slash-${this.active}`);
      // The list scrolls (prompt files make it long): the entry the keys moved to stays in sight.
      (this.node.children[this.active] as HTMLElement).scrollIntoView?.({ block: "nearest" });
    } else this.box.removeAttribute("aria-activedescendant");
  }
}

// The workspace's prompt files as slash commands (issue 27, item 3): the list the kernel last gave
// (prompts/list), asked for again when the slash list opens, the view loads or the folder's trust
// changes; a list that could not be had leaves the built-in commands alone.
import type { FromWebview, ToWebview } from "../shared/protocol/webview.js";
import { promptCommands, type SlashCommand } from "./slashCommands.js";

export class PromptCommands {
  private commands: SlashCommand[] = [];
  /** Called when a new list arrives (the open slash list shows it). */
  onChange: () => void = () => undefined;

  constructor(private readonly send: (message: FromWebview) => void) {}

  list(): readonly SlashCommand[] {
    return this.commands;
  }

  refresh(): void {
    this.send({ type: "prompts/refresh" });
  }

  hear(message: ToWebview): boolean {
    switch (message.type) {
      case "prompts/list":
        // An error keeps the last list: the menu still offers what was there (running one reads it again).
        if (message.list) this.commands = promptCommands(message.list.prompts);
        this.onChange();
        return true;
      case "chat/transcript":
      case "workspace/trust":
        this.refresh();
        return false;
      default:
        return false;
    }
  }
}

// The message box with its context chips, Send (Enter; Shift+Enter is a new line), Stop and New chat. Whether a turn
// is in flight comes from the extension (chat/busy), never guessed here.
import type { Attachment } from "../shared/protocol/attachments.js";
import { button, setEnabled, textArea } from "./components/index.js";
import { typedAtMention } from "./atMention.js";
import { ContextChips, type ContextRequest } from "./contextChips.js";

export interface ComposerActions {
  /** The typed text and the context chips (the kernel reads what they name). */
  send(text: string, attachments: Attachment[]): void;
  /** Asks the extension for the current file, the selection, or a picked file (issue 15 item 5). */
  requestContext(what: ContextRequest): void;
  /** "Run in background": the message becomes a background task instead of a chat turn (issue 12). */
  background(text: string): void;
  stop(): void;
  newChat(): void;
}

export class Composer {
  readonly node = document.createElement("div");
  private readonly box = textArea({
    id: "message",
    label: "Message to Hearth",
    placeholder: "Ask Hearth… (Enter sends, Shift+Enter: new line)",
  });
  private readonly sendButton: HTMLElement;
  private readonly stopButton: HTMLElement;
  private readonly newButton: HTMLElement;
  private readonly backgroundButton: HTMLElement;
  private busy = false;
  private readonly context: ContextChips;

  constructor(private readonly actions: ComposerActions) {
    this.node.className = "composer";
    this.context = new ContextChips((what) => actions.requestContext(what));
    // "@" starting a word opens the file picker; the @ itself is not kept in the message.
    this.box.el.addEventListener("input", () => {
      const value = this.box.value();
      if (!typedAtMention(value, value.length)) return;
      this.box.set(value.slice(0, -1));
      actions.requestContext("pick");
    });
    this.sendButton = button("Send", () => this.submit(), { id: "send" });
    this.stopButton = button("Stop", () => actions.stop(), { id: "stop", secondary: true });
    this.newButton = button("New chat", () => actions.newChat(), { id: "new-chat", secondary: true });
    this.backgroundButton = button("Run in background", () => this.submit((text) => actions.background(text)), {
      id: "run-in-background",
      secondary: true,
      ariaLabel: "Run this message as a background task (the Tasks view shows it)",
    });
    this.box.el.addEventListener("keydown", (e: KeyboardEvent) => {
      if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
      e.preventDefault();
      this.submit();
    });
    const row = document.createElement("div");
    row.className = "composer-buttons";
    row.append(this.sendButton, this.stopButton, this.newButton, this.backgroundButton);
    this.node.append(this.context.node, this.box.el, row);
    this.setBusy(false);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.node.dataset.busy = String(busy);
    setEnabled(this.sendButton, !busy);
    setEnabled(this.stopButton, busy);
    setEnabled(this.newButton, !busy);
  }

  /** A chip the extension resolved; null, or why it was not added. */
  attach(a: Attachment): string | null {
    return this.context.add(a);
  }

  /** Sends the text (with the chips) or, for a background task, the text alone (its chips stay for the chat). */
  private submit(background?: (text: string) => void): void {
    const text = this.box.value().trim();
    if (!text || this.busy) return;
    if (background) background(text);
    else {
      this.actions.send(text, this.context.attachments);
      this.context.clear();
    }
    // Cleared at once; a refused message comes back as a notice that quotes why, not the text.
    this.box.clear();
  }
}

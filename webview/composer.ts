// The message box with Send (Enter; Shift+Enter is a new line), Stop and New chat. Whether a turn
// is in flight comes from the extension (chat/busy), never guessed here.
import { button, setEnabled, textArea } from "./components/index.js";

export interface ComposerActions {
  send(text: string): void;
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

  constructor(private readonly actions: ComposerActions) {
    this.node.className = "composer";
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
    this.node.append(this.box.el, row);
    this.setBusy(false);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.node.dataset.busy = String(busy);
    setEnabled(this.sendButton, !busy);
    setEnabled(this.stopButton, busy);
    setEnabled(this.newButton, !busy);
  }

  private submit(deliver: (text: string) => void = (text) => this.actions.send(text)): void {
    const text = this.box.value().trim();
    if (!text || this.busy) return;
    deliver(text);
    // Cleared at once; a refused message comes back as a notice that quotes why, not the text.
    this.box.clear();
  }
}

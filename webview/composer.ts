// The message box pinned at the bottom of the chat (issue 25 item 3): the context chips, the box
// (Enter sends, Shift+Enter is a new line, Escape stops a running turn), and one toolbar of icon
// buttons: attach, run in background, new chat, and Send, which becomes Stop while a turn runs.
// Whether a turn is in flight comes from the extension (chat/busy), never guessed here.
import type { Attachment } from "../shared/protocol/attachments.js";
import { iconButton, setEnabled, textArea } from "./components/index.js";
import { typedAtMention } from "./atMention.js";
import { ContextChips, type ContextRequest } from "./contextChips.js";
import type { ContextFill } from "../shared/protocol/records.js";
import { estimateTokens, LONG_PASTE_CHARS, type MeasuredRoom, pasteChip, roomFor, splitPaste, withPaste } from "./longPaste.js";
import { tooLongWarning } from "./pasteWarning.js";

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

/** The message box (the toolkit's text area): `value` is its text; `control` the inner textarea, once rendered. */
export type TextBox = HTMLElement & { value: string; control?: HTMLTextAreaElement };

/** The box's accessible name, the start of what its placeholder shows (issue 25 item 5). */
export const BOX_LABEL = "Message Hearth";

export class Composer {
  readonly node = document.createElement("div");
  private readonly box = textArea({
    id: "message",
    label: BOX_LABEL,
    placeholder: `${BOX_LABEL} (Enter sends, Shift+Enter: new line, Escape stops)`,
  });
  private readonly sendButton: HTMLElement;
  private readonly stopButton: HTMLElement;
  private readonly newButton: HTMLElement;
  private busy = false;
  private readonly context: ContextChips;
  /** A long paste, shown as a chip and sent after the typed text (issue 25 item 8). */
  private paste: string | undefined;
  private readonly pasteRow = document.createElement("div");
  private readonly warningSlot = document.createElement("div");
  private readonly row = document.createElement("div");
  /** How full the chat's context was after its last turn: what a long paste is measured against. */
  private fill: ContextFill | undefined;
  /** The room the model measured when it refused a message of this chat as too long: it replaces the estimate. */
  private measured: MeasuredRoom | undefined;

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
    this.sendButton = iconButton("send", "Send", () => this.submit(), { id: "send", keys: "Enter" });
    this.stopButton = iconButton("debug-stop", "Stop", () => this.stop(), { id: "stop", keys: "Escape" });
    this.newButton = iconButton("add", "New chat", () => actions.newChat(), { id: "new-chat" });
    const backgroundButton = iconButton("layers", "Run in background", () => this.submit((text) => actions.background(text)), {
      id: "run-in-background",
    });
    this.box.el.addEventListener("paste", (e: ClipboardEvent) => {
      const text = e.clipboardData?.getData("text/plain") ?? "";
      if (text.length <= LONG_PASTE_CHARS) return;
      e.preventDefault();
      this.setPaste(this.paste === undefined ? text : `${this.paste}\n${text}`);
    });
    this.box.el.addEventListener("keydown", (e: KeyboardEvent) => {
      if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
      e.preventDefault();
      this.submit();
    });
    // Escape stops the running turn from anywhere in the view (a menu or a rename box it leaves alone).
    document.addEventListener("keydown", (e: KeyboardEvent) => {
      if (e.key !== "Escape" || !this.busy || e.defaultPrevented || e.isComposing) return;
      e.preventDefault();
      this.stop();
    });
    const row = this.row;
    row.className = "composer-buttons";
    const spacer = document.createElement("span");
    spacer.className = "composer-spacer";
    row.append(this.context.buttons, spacer, backgroundButton, this.newButton, this.sendButton, this.stopButton);
    this.pasteRow.className = "chips";
    this.pasteRow.hidden = true;
    this.node.append(this.context.node, this.pasteRow, this.warningSlot, this.box.el, row);
    this.setBusy(false);
  }

  /**
   * Parts other files own (issue 27: the slash list above the box, the mode picker in the toolbar),
   * given the box they work on.
   */
  extend(make: (box: TextBox) => { aboveBox?: HTMLElement; inToolbar?: HTMLElement }): void {
    const { aboveBox, inToolbar } = make(this.box.el as TextBox);
    if (aboveBox) this.box.el.before(aboveBox);
    if (inToolbar) this.row.prepend(inToolbar);
  }

  setBusy(busy: boolean): void {
    const wasBusy = this.busy;
    this.busy = busy;
    this.node.dataset.busy = String(busy);
    // One place, one action: Send while idle, Stop while a turn runs.
    this.sendButton.hidden = busy;
    this.stopButton.hidden = !busy;
    setEnabled(this.stopButton, busy);
    setEnabled(this.newButton, !busy);
    // The Stop button goes away when the turn ends: the focus it had comes back to the box.
    // Only while the view has the focus: a turn that ends while the person works in an editor leaves
    // their focus there (inside an unfocused view activeElement is the body too).
    if (wasBusy && !busy && document.hasFocus() && (document.activeElement === this.stopButton || document.activeElement === document.body))
      this.focus();
  }

  /** The focus command (Ctrl+Alt+H) and Stop land here, so typing goes into the message. */
  focus(): void {
    this.box.focus();
  }

  /** The chat's context fill after its last turn (none: a new chat, which forgets a measured room too). */
  setContext(fill: ContextFill | undefined): void {
    this.fill = fill;
    if (!fill) this.measured = undefined;
  }

  /** The room the model measured for a message of this chat, when it refused one as too long (issue 25 item 8). */
  setMeasuredRoom(measured: MeasuredRoom): void {
    this.measured = measured;
  }

  /** A chip the extension resolved; null, or why it was not added. */
  attach(a: Attachment): string | null {
    return this.context.add(a);
  }

  /**
   * A message that was not sent (no model yet, the kernel refused it): back into the box with its
   * chips, unless the person has typed another one meanwhile (issue 25 item 6: nothing typed is lost).
   */
  restore(text: string, attachments: readonly Attachment[], carried?: string): void {
    // An earlier chat's conversation (issue 25 item 2) goes with the next message, as a chip.
    if (carried !== undefined) this.setPaste(carried, "Earlier chat");
    if (this.box.value().trim()) return;
    // A long paste comes back as the chip it was (unless one is there), not as a box full of text.
    const { typed, paste } = splitPaste(text);
    if (paste !== undefined && this.paste === undefined) {
      this.setPaste(paste);
      this.box.set(typed);
    } else this.box.set(text);
    for (const a of attachments) this.context.add(a);
    this.focus();
  }

  /**
   * A message the model refused as too long back in the box (issue 25 item 8), whole to edit or cut
   * to the room the model measured; false (nothing changes) while the box holds another message.
   */
  putBack(message: string, trim: boolean): boolean {
    if (this.box.value().trim() || this.paste !== undefined) return false;
    this.restore(message, []);
    if (trim) this.keepFirst(this.roomChars());
    return true;
  }

  private stop(): void {
    this.actions.stop();
    this.focus();
  }

  /** The characters a message may have in the room the chat has. */
  private roomChars(): number {
    const { room, charsPerToken } = roomFor(this.fill, this.measured);
    return Math.floor(room * charsPerToken);
  }

  /** Cuts the message to its first `keepChars`: the paste's, once the typed text and the paste's fence are counted; else the box's. */
  private keepFirst(keepChars: number): void {
    const typed = this.box.value().trim();
    if (this.paste !== undefined) this.setPaste(this.paste.slice(0, Math.max(0, keepChars - withPaste(typed, "").length)));
    else this.box.set(typed.slice(0, keepChars));
  }

  private setPaste(text: string | undefined, what?: string): void {
    this.paste = text;
    this.warningSlot.replaceChildren();
    this.pasteRow.hidden = text === undefined;
    this.pasteRow.replaceChildren(...(text === undefined ? [] : [pasteChip(text, () => this.setPaste(undefined), what)]));
  }

  /**
   * Sends the text (with the chips and a long paste) or, for a background task, the text alone (its
   * chips stay for the chat). A message with a paste that cannot fit is held with a warning; `anyway`
   * is the person's choice to send it all the same.
   */
  private submit(background?: (text: string) => void, anyway = false): void {
    const typed = this.box.value().trim();
    if ((!typed && this.paste === undefined) || this.busy) return;
    const text = withPaste(typed, this.paste).trim();
    const room = roomFor(this.fill, this.measured);
    const tokens = estimateTokens(text, room.charsPerToken);
    if (this.paste !== undefined && !anyway && tokens > room.room) {
      this.warningSlot.replaceChildren(
        tooLongWarning(tokens, room, {
          trim: (keepChars) => {
            this.keepFirst(keepChars);
            this.focus();
          },
          remove: () => {
            this.setPaste(undefined);
            this.focus();
          },
          sendAnyway: () => this.submit(background, true),
        }),
      );
      return;
    }
    if (background) background(text);
    else {
      this.actions.send(text, this.context.attachments);
      this.context.clear();
    }
    // Cleared at once; a message the extension could not send comes back (chat/unsent → restore).
    this.box.clear();
    this.setPaste(undefined);
  }
}

// What the view adds to the transcript's messages (undo panels, rewind menus and folds): the
// transcript may be redrawn at any time (a reload, another session, a live turn), so a decoration
// places itself again whenever its children change. `place` must leave a placed decoration alone.
import type { FromWebview, ToWebview } from "../shared/protocol/webview.js";

export abstract class TranscriptDecorations {
  private readonly observer = new MutationObserver(() => this.place());

  constructor(
    protected readonly transcript: HTMLElement,
    protected readonly send: (message: FromWebview) => void,
  ) {
    this.observer.observe(transcript, { childList: true, subtree: true });
  }

  /** Handles the view's messages that concern it; true when the message was one of its own. */
  abstract hear(message: ToWebview): boolean;

  protected abstract place(): void;
}

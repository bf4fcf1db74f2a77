// A chat transcript (webview/transcript.ts) in the jsdom of webviewDom(), with no-op actions (or those given): what the
// view's unit tests share. Import after webviewDom() has set the globals.
import type { PagerDeps } from "../../webview/historyPager.js";
import { MarkdownRenderer } from "../../webview/markdown.js";
import { Transcript, type TranscriptDeps } from "../../webview/transcript.js";
import { noViewActions } from "./viewActions.js";

const noop = () => {};

export function testTranscript(
  window: Window,
  pages: Partial<PagerDeps> = {},
  deps: Partial<Omit<TranscriptDeps, "onRendered">> = {},
): Transcript {
  return new Transcript(
    {
      renderer: new MarkdownRenderer(window),
      code: { copy: noop, insert: noop, apply: noop },
      actions: noViewActions,
      announce: noop,
      onContext: noop,
      onTooLong: noop,
      putBack: noop,
      ...deps,
    },
    { requestOlder: noop, requestLatest: noop, ...pages },
  );
}

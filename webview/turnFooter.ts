// The end of a turn (issue 15 item 3, issue 13): its status (a loop guard's stop said plainly, an
// error with its action), the tokens it added to the context, how full the context is, and how long it took.
import type { ContextFill, RunEnding } from "../shared/protocol/records.js";
import { progressBar } from "./components/index.js";
import { el } from "./dom.js";
import { type Completed, turnStatus } from "./turnStatus.js";

/** "2,345 / 8,192 tokens (29%)". */
export function contextText(context: ContextFill): string {
  const percent = Math.round((context.usedTokens / context.contextSize) * 100);
  return `${context.usedTokens.toLocaleString("en")} / ${context.contextSize.toLocaleString("en")} tokens (${percent}%)`;
}

export function contextMeter(context: ContextFill, testId: string): HTMLElement {
  const meter = el("span", "context-meter");
  meter.dataset.testid = testId;
  meter.dataset.used = String(context.usedTokens);
  meter.dataset.size = String(context.contextSize);
  const fraction = context.usedTokens / context.contextSize;
  meter.dataset.level = fraction >= 0.9 ? "full" : fraction >= 0.7 ? "high" : "ok";
  meter.title = `Context ${contextText(context)}`;
  meter.append(
    progressBar(fraction, `Context used: ${contextText(context)}`),
    el("span", "context-text", `Context ${contextText(context)}`),
  );
  return meter;
}

/**
 * The turn's status line and footer. `previous`: the context fill before this turn (the tokens the
 * turn added are the difference; unknown for the first turn seen in this view); `failureActions`:
 * what a person can do about a failure (failureActions.ts).
 */
export function turnFooter(
  event: Completed,
  startedAt: number,
  previous: ContextFill | undefined,
  failureActions?: HTMLElement,
): HTMLElement {
  const wrap = el("div", "turn-end");
  wrap.append(...turnStatus(event));
  if (event.status === "failed" && failureActions) wrap.append(failureActions);
  const footer = el("div", "turn-footer");
  footer.dataset.testid = "turn-footer";
  const seconds = (performance.now() - startedAt) / 1000;
  if (event.context) {
    if (previous && previous.contextSize === event.context.contextSize) {
      const added = event.context.usedTokens - previous.usedTokens;
      footer.append(el("span", "turn-tokens", `${added >= 0 ? "+" : ""}${added.toLocaleString("en")} tokens`));
    }
    footer.append(contextMeter(event.context, "turn-context"));
  }
  footer.append(el("span", "turn-time", `${seconds.toFixed(1)} s`));
  wrap.append(footer);
  return wrap;
}

/**
 * A run's ending read back from the journal (issue 25 item 11): the status line it ended with, no
 * timing or actions (those were for the moment it ended; the next send meets any failure again).
 */
export function historyEnding(ending: RunEnding): HTMLElement {
  const wrap = el("div", "turn-end");
  wrap.dataset.testid = "history-ending";
  wrap.append(
    ...turnStatus({
      status: ending.status,
      ...(ending.message !== undefined ? { error: { message: ending.message } } : {}),
      ...(ending.stoppedAtTokenCap ? { stoppedAtTokenCap: true as const } : {}),
      ...(ending.tooLong ? { tooLong: ending.tooLong } : {}),
    }),
  );
  return wrap;
}

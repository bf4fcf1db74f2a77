// The chat transcript: committed history on (re)load, then live turns built from turn events in
// the order they arrive. Answers are markdown rendered inert (markdown.ts); everything else a model
// or a tool wrote is only ever set with textContent (never as HTML).
import type { Condensation, ContextFill, HistoryMessage, MessageTooLong, ToolCallRecord, TurnEvent } from "../shared/protocol/records.js";
import type { CallStates, RunEndings } from "../shared/protocol/webview.js";
import { AnswerView, type CodeActions } from "./answerView.js";
import type { ViewActions } from "./errorActions.js";
import type { MarkdownRenderer } from "./markdown.js";
import { type CallDecision, setCallDecision, setCallStatus, toolCard, toolResult } from "./toolCard.js";
import { historyEnding, turnFooter } from "./turnFooter.js";
import { failureActions, type PutBack } from "./failureActions.js";
import { TurnProgress } from "./turnProgress.js";
import { PendingCalls, type TurnEnd } from "./pendingCalls.js";
import { el } from "./dom.js";
import { blockBytes, splitMessage } from "../shared/attachmentText.js";
import type { Attachment } from "../shared/protocol/attachments.js";
import { attachmentChips } from "./attachmentChip.js";
import { HistoryPager, type PagerDeps } from "./historyPager.js";
import { foldLongMessage } from "./longMessage.js";
import { codeText } from "./codeText.js";
import { plainKernelText } from "./kernelWords.js";

/**
 * The person's message: the typed text, and a chip per attachment (issue 15) with the size of what the
 * kernel read (issue 29 item 3): as the kernel said when it started the turn, or as the journaled
 * message holds it.
 */
function userMessage(text: string, attached?: readonly Attachment[], attachedBytes?: readonly number[]): HTMLElement {
  const { typed, attachments } = attached ? { typed: text, attachments: attached } : splitMessage(text);
  const bytes = attached ? attachedBytes : blockBytes(text);
  const node = el("div", "msg user");
  node.dataset.testid = "user-message";
  const body = el("div", "body", typed);
  node.append(el("div", "who", "You"), body);
  const fold = foldLongMessage(body, typed);
  if (fold) node.append(fold);
  if (attachments.length) node.append(attachmentChips(attachments, bytes));
  return node;
}

export interface TranscriptDeps {
  renderer: MarkdownRenderer;
  code: CodeActions;
  actions: ViewActions;
  /** Says a completed answer or a status change to a screen reader (never each streamed chunk). */
  announce(text: string): void;
  /** The context fill after a turn (the header shows the latest). */
  onContext(context: ContextFill): void;
  /** The model refused a message as too long (issue 25 item 8): the box measures the next one by its numbers. */
  onTooLong(message: string, tooLong: MessageTooLong): void;
  putBack: PutBack;
  /** An answer re-rendered (it may have grown): keep the bottom in view if the reader is there. */
  onRendered(): void;
}

/** One assistant reply: answer text, reasoning and tool calls in arrival order. */
class AssistantBlock {
  readonly node = el("div", "msg assistant");
  private current: { kind: "answer"; view: AnswerView } | { kind: "reasoning"; node: HTMLElement } | undefined;
  private readonly answers: AnswerView[] = [];
  readonly startedAt = performance.now();
  /** The calls the model is writing (live turns only). */
  readonly pending = new PendingCalls();
  /** The person's message this reply answers, when this view sent it; whether the chat had a turn before it. */
  sent: string | null = null;
  earlierTurns = false;

  constructor(private readonly deps: TranscriptDeps) {
    this.node.dataset.testid = "assistant-message";
    this.node.append(el("div", "who", "Hearth"));
  }

  answer(text: string, whole = false): void {
    if (this.current?.kind !== "answer") {
      const view = new AnswerView(this.deps.renderer, this.deps.code, this.deps.onRendered);
      this.answers.push(view);
      this.node.append(view.node);
      this.current = { kind: "answer", view };
    }
    if (whole) this.current.view.set(this.current.view.markdown + text);
    else this.current.view.append(text);
  }

  reasoning(text: string): void {
    if (this.current?.kind !== "reasoning") {
      // Reasoning is dimmed and folded: a person opens it when they want it.
      const details = el("details", "reasoning");
      details.append(el("summary", undefined, "Reasoning"));
      const node = el("div", "reasoning-text");
      details.append(node);
      this.node.append(details);
      this.current = { kind: "reasoning", node };
    }
    this.current.node.append(text);
  }

  /** The model began writing a call: its card stands in the reply until the call arrives. */
  callStarted(index: number, name: string): void {
    this.current = undefined;
    this.node.append(this.pending.started(index, name));
  }

  call(call: ToolCallRecord, state?: CallStates[string]): void {
    this.current = undefined;
    const card = toolCard(call, state?.status ?? "prepared", state?.reason);
    setCallDecision(card, state?.decision);
    // Replaced in the same task, so the card never blinks and is never drawn twice.
    const standIn = this.pending.arrived(call);
    if (standIn) standIn.replaceWith(card);
    else this.node.append(card);
  }

  result(callId: string, ok: boolean, output: string, opts: { state?: CallStates[string]; elided?: boolean } = {}): void {
    this.current = undefined;
    const card = Array.from(this.node.querySelectorAll<HTMLElement>(".tool-call")).find((c) => c.dataset.callId === callId);
    if (card) {
      // The ledger's word when the history carries it; live, the result says how the call went.
      setCallStatus(card, opts.state?.status ?? (ok ? "succeeded" : "failed"), opts.state?.reason);
      card.append(toolResult(ok, output, opts.elided));
    } else this.node.append(toolResult(ok, output, opts.elided));
  }

  /** The answer text as written (for the screen reader's announcement). */
  answerText(): string {
    return this.answers
      .map((a) => a.markdown)
      .join("\n")
      .trim();
  }

  flush(): void {
    for (const a of this.answers) a.flush();
  }

  end(node: HTMLElement, how: TurnEnd = "completed"): void {
    this.flush();
    this.current = undefined;
    this.pending.settle(how);
    this.node.append(node);
  }
}

/** What the journal says about the messages of a page: each call's ledger state, how runs ended. */
export interface HistoryStates {
  calls?: CallStates;
  endings?: RunEndings;
}

/** The newest condensation: the range the model now sees as a summary (issue 13). */
function latest(condensations: Condensation[]): Condensation | undefined {
  return condensations.length ? condensations[condensations.length - 1] : undefined;
}

function condensedMarker(c: Condensation): HTMLElement {
  const marker = el("div", "condensed-marker");
  marker.dataset.testid = "condensed-marker";
  marker.setAttribute("role", "note");
  const how =
    c.trigger === "on_demand"
      ? "You compacted the chat"
      : c.betweenTurns
        ? "The chat neared its context limit, so Hearth condensed it while you read"
        : "The context filled up";
  // A model that cannot count tokens reports 0 for both: then there is no saving to show.
  const saved = c.tokensBefore > 0 ? ` (${c.tokensBefore.toLocaleString("en")} → ${c.tokensAfter.toLocaleString("en")} tokens)` : "";
  marker.append(
    el("div", "condensed-title", `${how}: the messages above are condensed for the model${saved}. They stay here and in the journal.`),
  );
  if (c.summary) {
    const details = el("details", "condensed-summary");
    details.append(el("summary", undefined, "What the model sees instead"), el("div", "condensed-text", c.summary));
    marker.append(details);
  }
  return marker;
}

export class Transcript {
  readonly node = el("div", "transcript");
  private readonly live = new Map<string, AssistantBlock>();
  /** Decisions heard before their call's card was drawn (the card's event may come after the notice). */
  private readonly earlyDecisions = new Map<string, CallDecision>();
  /** The live turns' signs of life, kept last in their reply. */
  private readonly progress = new Map<string, TurnProgress>();
  /** True while the reader is at the bottom: new content scrolls into view only then. */
  private pinned = true;
  /** The scroll position at the last scroll event: moving up from it is the reader's doing. */
  private lastTop = 0;
  private lastContext: ContextFill | undefined;
  /** The session's condensations (from its latest page): older pages place their marker too. */
  private condensations: Condensation[] = [];
  private readonly deps: TranscriptDeps;
  private readonly pager: HistoryPager;

  constructor(deps: Omit<TranscriptDeps, "onRendered">, pages: PagerDeps) {
    this.deps = { ...deps, onRendered: () => this.scroll() };
    this.pager = new HistoryPager(this.node, pages);
    this.node.dataset.testid = "transcript";
    this.node.tabIndex = 0;
    this.node.setAttribute("aria-label", "Chat transcript");
    this.node.addEventListener(
      "scroll",
      () => {
        // Only the reader moving up unpins: content that grows below (a scroll event may come after it
        // grew) leaves the view where it is, and the next render or resize brings it back to the end.
        const top = this.node.scrollTop;
        if (this.node.scrollHeight - top - this.node.clientHeight < 24) this.pinned = true;
        else if (top < this.lastTop) this.pinned = false;
        this.lastTop = top;
      },
      { passive: true },
    );
    // What grows without a render of its own (the Rewind and Fork buttons placed after a reloaded
    // transcript, an older page, a card opened) or a view that shrinks (the composer grows) keeps the
    // newest content in view while the reader is at the bottom.
    const keepPinned = new ResizeObserver(() => this.scroll());
    for (const part of [this.node, this.pager.top, this.pager.pages, this.pager.bottom]) keepPinned.observe(part);
  }

  /** The chat is being read (after a reload the kernel may still start): said in an empty view only, never over a shown chat. */
  loading(): void {
    if (this.node.childElementCount > 0) return;
    const note = el("p", "transcript-loading", "Loading this chat…");
    note.dataset.testid = "transcript-loading";
    note.setAttribute("role", "status");
    this.node.append(note);
  }

  /**
   * Replaces everything with a session's committed history: its latest page when `hasOlder` (older
   * pages come in above as the person scrolls up, historyPager.ts), else all of it.
   */
  show(
    messages: HistoryMessage[],
    opts: { sessionId?: string; condensations?: Condensation[]; hasOlder?: boolean } & HistoryStates = {},
  ): void {
    for (const block of this.live.values()) block.pending.stop();
    this.live.clear();
    for (const p of this.progress.values()) p.stop();
    this.progress.clear();
    this.lastContext = undefined;
    this.condensations = opts.condensations ?? [];
    this.node.dataset.historyMessages = String(messages.length);
    const page = this.page(messages, opts, { before: opts.hasOlder ? undefined : 0 });
    this.pager.reset(opts.sessionId, page, messages[0]?.seq, messages.length, opts.hasOlder ?? false);
    this.node.replaceChildren(this.pager.top, this.pager.pages, this.pager.bottom);
    this.pinned = true;
    this.scroll();
    this.pager.maybeLoad();
  }

  /** An older page (chat/older): above the kept ones, the reader's view unmoved. */
  older(sessionId: string, messages: HistoryMessage[], states: HistoryStates, hasOlder: boolean, failed?: string): void {
    const next = this.pager.oldestSeq;
    const page = this.page(messages, states, { before: hasOlder ? undefined : 0, next });
    this.pager.prepend(sessionId, page, messages[0]?.seq, messages.length, hasOlder, failed);
    this.node.dataset.historyMessages = String(this.pager.keptMessages);
  }

  /**
   * One page of history as its own element. `before`: the seq of the message before the page (0: the
   * session's start; undefined: not loaded yet); `next`: the first seq after it, when shown. The
   * condensed marker goes where the condensed range ends, which may be a page's edge.
   */
  private page(messages: HistoryMessage[], states: HistoryStates, edges: { before?: number; next?: number }): HTMLElement {
    const node = el("div", "history-page");
    const calls = states.calls ?? {};
    const condensed = latest(this.condensations);
    const through = condensed?.throughSeq;
    const elided = new Set(this.condensations.flatMap((c) => c.elidedCallIds));
    let assistant: AssistantBlock | undefined;
    let previous = edges.before;
    /** The text of the message just before, when its run was refused before saying anything. */
    let refused: string | undefined;
    for (const m of messages) {
      if (condensed && through != null && previous !== undefined && previous <= through && m.seq > through) {
        node.append(condensedMarker(condensed));
        assistant = undefined;
      }
      previous = m.seq;
      const inCondensed = condensed?.fromSeq != null && through != null && m.seq >= condensed.fromSeq && m.seq <= through;
      switch (m.role) {
        case "system":
          break;
        case "user": {
          assistant = undefined;
          // Sent again after its refusal (Use the old tools for this chat): the chat shows it once, as
          // the model sees it once (a refused run's lone message is not replayed to it).
          if (m.text === refused) break;
          const user = userMessage(m.text);
          user.dataset.seq = String(m.seq); // a rewind goes back to a user message by its seq (issue 29)
          if (inCondensed) user.classList.add("condensed");
          node.append(user);
          break;
        }
        case "assistant":
        case "tool":
          // A page may begin inside a turn longer than a page: its results still get a reply to sit in.
          if (!assistant) {
            assistant = new AssistantBlock(this.deps);
            if (inCondensed) assistant.node.classList.add("condensed");
            node.append(assistant.node);
          }
          if (m.role === "tool") {
            assistant.result(m.callId, m.ok, m.output, { state: calls[m.callId], elided: elided.has(m.callId) });
            break;
          }
          if (m.reasoning) assistant.reasoning(m.reasoning);
          if (m.text) assistant.answer(m.text, true);
          for (const call of m.toolCalls) assistant.call(call, calls[call.callId]);
          break;
      }
      const ending = states.endings?.[String(m.seq)];
      refused = m.role === "user" && ending?.status === "failed" && !ending.unfinishedAnswer ? m.text : undefined;
      if (ending) {
        // The run ended here as its live footer said: what it streamed and never committed, then its status.
        if (!assistant) {
          assistant = new AssistantBlock(this.deps);
          if (inCondensed) assistant.node.classList.add("condensed");
          node.append(assistant.node);
        }
        if (ending.unfinishedAnswer) assistant.answer(ending.unfinishedAnswer, true);
        assistant.end(historyEnding(ending));
        assistant = undefined;
      }
    }
    if (condensed && through != null && previous !== undefined && previous <= through && edges.next !== undefined && edges.next > through)
      node.append(condensedMarker(condensed));
    return node;
  }

  /**
   * A turn the kernel accepted: the person's message and an (empty) reply to stream into. `again`: the
   * message was refused just before and shows already; sent once more, it is not drawn twice.
   */
  startTurn(
    turnId: string,
    message: string | null,
    {
      attachments = [],
      attachedBytes,
      again,
    }: { attachments?: readonly Attachment[]; attachedBytes?: readonly number[]; again?: boolean } = {},
  ): void {
    const block = new AssistantBlock(this.deps);
    this.live.set(turnId, block);
    const progress = new TurnProgress(block.startedAt);
    this.progress.set(turnId, progress);
    block.node.append(progress.node);
    block.sent = message;
    block.earlierTurns = this.hasTurns();
    // Sending is a choice to follow the reply: back to the bottom.
    if (message !== null) {
      if (!again) this.node.append(userMessage(message, attachments, attachedBytes));
      this.pinned = true;
    }
    this.node.append(block.node);
    this.scroll();
  }

  /** Who decided a call's approval, heard as it was journaled (issue 27): its card says it at once. */
  decision(callId: string, d: CallDecision): void {
    const card = Array.from(this.node.querySelectorAll<HTMLElement>(".tool-call")).find((c) => c.dataset.callId === callId);
    if (!card) {
      this.earlyDecisions.set(callId, d);
      return;
    }
    this.earlyDecisions.delete(callId);
    setCallDecision(card, d);
  }

  event(turnId: string, event: TurnEvent): void {
    const block = this.live.get(turnId);
    if (!block) return;
    const progress = this.progress.get(turnId);
    progress?.hear(event);
    switch (event.type) {
      case "answer_delta":
        block.answer(event.text);
        break;
      case "reasoning_delta":
        block.reasoning(event.text);
        break;
      case "tool_call_started":
        block.callStarted(event.index, event.name);
        break;
      case "tool_call_args":
        block.pending.grew(event.index, event.chars);
        break;
      case "tool_call": {
        block.call(event.call);
        const early = this.earlyDecisions.get(event.call.callId);
        if (early) this.decision(event.call.callId, early);
        break;
      }
      case "tool_result":
        block.result(event.callId, event.ok, event.output);
        break;
      case "status":
        break;
      case "completed": {
        const actions = event.status === "failed" ? failureActions(event, block, this.deps.actions, this.deps.putBack) : undefined;
        block.end(turnFooter(event, block.startedAt, this.lastContext, actions), event.status);
        if (event.tooLong && block.sent !== null) this.deps.onTooLong(block.sent, event.tooLong);
        if (event.context) {
          this.lastContext = event.context;
          this.deps.onContext(event.context);
        }
        const answer = block.answerText();
        this.deps.announce(
          event.status === "completed" && !event.stoppedAtTokenCap
            ? `Hearth answered: ${answer.slice(0, 500)}`
            : (block.node.querySelector(".turn-status")?.textContent ?? event.status),
        );
        this.live.delete(turnId);
        this.progress.delete(turnId);
        break;
      }
    }
    if (progress && this.progress.has(turnId)) block.node.append(progress.node);
    this.scroll();
  }

  /** Whether the chat shows a message of the person's: a turn that Compact could condense. */
  hasTurns(): boolean {
    return this.node.querySelector('[data-testid="user-message"]') !== null;
  }

  notice(level: "info" | "error", message: string, actions?: HTMLElement): void {
    // issue 25 item 11: a kernel refusal in the chat's words, a quoted name drawn as code.
    const node = codeText(el("div", `notice ${level}`), plainKernelText(message));
    node.dataset.testid = "chat-notice";
    node.dataset.level = level;
    if (actions) node.append(actions);
    this.node.append(node);
    this.deps.announce(node.textContent ?? message);
    this.scroll();
  }

  /** Keeps the newest content in view, unless the reader scrolled up to read something older. */
  private scroll(): void {
    if (this.pinned) this.node.scrollTop = this.node.scrollHeight;
  }
}

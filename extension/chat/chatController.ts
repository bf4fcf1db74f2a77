// The chat's state between the view and the kernel: one current session (created lazily on the
// first message, remembered across reloads), at most one turn in flight, its events forwarded to
// the view. The turn runs in the shared kernel, so a reload or a reconnect follows it (turn/follow).
// Plain Node (no `vscode` import) so it runs under tests with a real kernel.
import { DisposableStore } from "../../shared/lifecycle.js";
import { KernelRequestError, type KernelClient } from "../../shared/node/kernelClient.js";
import type { HistoryMessage, NotificationParams, TurnEvent } from "../../shared/protocol/index.js";
import type { Attachment } from "../../shared/protocol/attachments.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelLog, KernelState, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { applyMessage } from "../../shared/applyMessage.js";
import { carriedConversation } from "./carriedConversation.js";
import { switchedAway } from "./chatModel.js";
import { ChatModelChoice } from "./chatModelChoice.js";
import { KEPT_TOOLS, keepChatTools, NOT_KEPT } from "./chatToolChoice.js";
import { modelDisplayName } from "../../shared/protocol/modelView.js";
import { HISTORY_PAGE_MESSAGES, olderPageMessage, transcriptMessage, wholeTurns } from "./transcriptMessage.js";
import { errorMessage } from "../../shared/errors.js";
import { ChatTurnState } from "./chatTurnStates.js";

export const MODEL_SETTING = "hearth.model";

export const NO_MODEL =
  `Hearth has no model to talk to: set \`${MODEL_SETTING}\` (Settings › Hearth › Model) to a GGUF file path, ` +
  "an hf: URI (hf:<user>/<repo>/<file>.gguf) or openai:<URL>#<model>, then press Enter: your message waits in the box.";

export interface ChatDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted" | "onClient" | "onState">;
  /** The `hearth.model` setting, read at each new session. */
  model(): string;
  /** Where the current session id survives a reload (workspaceState in VS Code). */
  store: { get(): string | undefined; set(sessionId: string | undefined): PromiseLike<void> | void };
  log: KernelLog;
  /** True while the folder is untrusted (Restricted Mode): each turn asks for read-only tools. */
  restricted(): boolean;
}

type TurnEventParams = NotificationParams<"turn/event">;

export class ChatController {
  private sessionId: string | undefined;
  /** The turn's phase (chatTurnStates.ts: the table of its moves); busy from Send until its end. */
  private readonly turn = new ChatTurnState((busy) => this.post({ type: "chat/busy", busy }));
  /** The turn the view shows, once turn/start or turn/follow has named it. */
  private turnId: string | undefined;
  /** Why the connection dropped while a turn ran; set until the next connection says what became of it. */
  private lostReason: string | undefined;
  private stopRequested = false;
  private readonly modelChoice: ChatModelChoice;
  /** Events that arrive before turn/start or turn/follow answers (the kernel may stream first). */
  private early: TurnEventParams[] = [];
  private view: ((message: ToWebview) => void) | undefined;
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly deps: ChatDeps) {
    this.sessionId = deps.store.get();
    this.modelChoice = new ChatModelChoice(deps);
    this.subscriptions.add(deps.kernel.onClient((client) => client.onNotification("turn/event", (n) => this.onTurnEvent(n))));
    this.subscriptions.add(
      deps.kernel.onClient((client) => client.onNotification("session/condensed", ({ sessionId }) => this.onCondensed(sessionId))),
    );
    this.subscriptions.add(
      deps.kernel.onClient((client) =>
        client.onNotification("approval/decided", (n) => {
          if (n.sessionId === this.sessionId) this.post({ type: "chat/decision", callId: n.callId, decision: n.decision });
        }),
      ),
    );
    this.subscriptions.add(deps.kernel.onState((state) => this.onKernelState(state)));
  }

  /** The view that receives chat messages (the latest resolved webview; none while it is gone). */
  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  /**
   * The view (re)loaded, or the connection to the kernel came back: show the current session's
   * committed history and follow a turn of it that runs in the kernel (this window's, or one that
   * kept running across a window reload).
   */
  async showTranscript(): Promise<void> {
    this.post({ type: "chat/busy", busy: this.turn.busy });
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.post({ type: "chat/transcript", sessionId: null, messages: [] });
      return;
    }
    this.post({ type: "chat/loading" });
    try {
      const client = await this.deps.kernel.ensureStarted();
      // issue 26 item 4: the latest page, so a long chat opens at once; older pages follow on scroll (loadOlder).
      const history = wholeTurns(await client.request("session/history", { sessionId, limit: HISTORY_PAGE_MESSAGES }));
      if (this.sessionId !== sessionId) return; // a new chat began meanwhile
      const running = history.runs.find((r) => r.status === "active");
      const mine = !this.turn.busy || this.turnId === running?.turnId;
      const streamed = running && mine ? await this.follow(client, running.turnId) : undefined;
      if (this.sessionId !== sessionId) return;
      if (running && streamed) {
        // The running turn's committed part is in the history too: show the history before the
        // turn, then everything the turn streamed so far, as if the view had never left.
        this.post(transcriptMessage(history, throughLastUserMessage(history.messages)));
        this.post({ type: "chat/turn", turnId: running.turnId, message: null });
        for (const event of streamed) this.post({ type: "chat/event", turnId: running.turnId, event });
        this.turnId = running.turnId;
        // A second load that raced this one may have seen the turn end already: it stays ended.
        if (this.turn.phase === "following") this.turn.moveTo("running");
        const early = this.early.filter((n) => n.turnId === running.turnId);
        this.early = [];
        for (const n of early) this.onTurnEvent(n);
      } else {
        this.post(transcriptMessage(history));
        const ended =
          this.turn.busy && this.turnId ? history.runs.find((r) => r.turnId === this.turnId && r.status !== "active") : undefined;
        // It ended while this window was not connected: its `completed` never reached this window.
        if (ended) this.endWithoutAnswer(ended.status === "completed" ? undefined : (this.lostReason ?? `the turn ${ended.status}`));
      }
      this.lostReason = undefined;
      this.post({ type: "chat/busy", busy: this.turn.busy });
    } catch (e) {
      const message = errorMessage(e);
      this.deps.log.warn(`could not load chat session ${sessionId}: ${message}`);
      // A kernel that did not start is shown in the header; the session may load on the next try.
      if (!(e instanceof KernelRequestError) || this.sessionId !== sessionId) return;
      this.sessionId = undefined;
      await this.deps.store.set(undefined);
      this.post({ type: "chat/transcript", sessionId: null, messages: [] });
      this.post({
        type: "chat/notice",
        level: "error",
        message: `The previous chat (${sessionId}) could not be loaded: ${message}. Your next message starts a new chat.`,
      });
    }
  }

  /**
   * The view scrolled up to the oldest message it holds: the page before it (chat/older), or why it
   * could not be read. An answer for a chat the view left is dropped there (it names its session).
   */
  async loadOlder(sessionId: string, beforeSeq: number): Promise<void> {
    if (sessionId !== this.sessionId) return;
    try {
      const client = await this.deps.kernel.ensureStarted();
      const page = await client.request("session/history", { sessionId, limit: HISTORY_PAGE_MESSAGES, beforeSeq });
      this.post(olderPageMessage(wholeTurns(page)));
    } catch (e) {
      this.deps.log.warn(`chat: older messages of ${sessionId} before ${beforeSeq} could not be loaded: ${errorMessage(e)}`);
      this.post({ type: "chat/older", sessionId, messages: [], calls: {}, hasOlder: true, failed: errorMessage(e) });
    }
  }

  /**
   * Sends a message: creates the session on the first one, then starts a turn. `again`: the message
   * the chat shows already, refused just before, sent once more (the view draws it once).
   */
  async send(text: string, attachments: Attachment[] = [], mode?: string, again = false): Promise<void> {
    const model = this.deps.model().trim();
    if (!this.sessionId && !model && !this.turn.busy) {
      // No kernel call: there is nothing it could do without a model. The message goes back to the box.
      this.post({ type: "chat/notice", level: "error", message: NO_MODEL });
      this.post(unsent(text, attachments));
      return;
    }
    // issue 25 item 2: a chat made with another model than the one set does not swap it as a side effect.
    const sessionId = this.sessionId;
    const mismatch = sessionId && !this.turn.busy ? await this.modelChoice.mismatch(sessionId) : null;
    if (mismatch) {
      this.post({ type: "chat/notice", level: "error", kind: "modelMismatch", message: `Your message was not sent: ${mismatch}` });
      this.post(unsent(text, attachments));
      return;
    }
    await this.begin(
      text,
      "Your message was not sent",
      async (client) => {
        const sessionId = this.sessionId ?? (await this.createSession(client, model, text));
        // issue 15 item 5: the kernel reads what the chips name through its anchored tools.
        const context = attachments.length ? { attachments } : {};
        return client.request("turn/start", {
          sessionId,
          message: text,
          readOnly: this.deps.restricted(),
          ...context,
          ...(mode === undefined ? {} : { mode }),
        });
      },
      { attachments, typed: true, again },
    );
  }

  /**
   * Apply to file (issue 15): the kernel proposes write_file(path, content) as a turn of this chat;
   * the proposal opens in the file with its lenses and nothing is written before Accept.
   */
  async apply(path: string, content: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.post({
        type: "chat/notice",
        level: "info",
        message: "Apply to file needs the chat the code block came from: reopen it from History, then press Apply again.",
      });
      return;
    }
    await this.begin(applyMessage(path), `The code block was not applied to ${path}`, (client) =>
      client.request("turn/apply", { sessionId, path, content, readOnly: this.deps.restricted() }),
    );
  }

  /**
   * Starts a turn (`message`: the person's, as the view shows it) unless one is in flight, and follows
   * its events. `typed`: the message came from the box, which gets it back when the turn cannot start;
   * `again`: the view shows the message already (see send).
   */
  private async begin(
    message: string,
    failure: string,
    start: (client: KernelClient) => Promise<{ turnId: string; attachedBytes?: number[] }>,
    { attachments = [], typed = false, again = false }: { attachments?: Attachment[]; typed?: boolean; again?: boolean } = {},
  ): Promise<void> {
    if (this.turn.busy) {
      this.post({ type: "chat/notice", level: "info", message: "A turn is still running: wait for it or press Stop, then try again." });
      if (typed) this.post(unsent(message, attachments));
      return;
    }
    this.turn.moveTo("starting");
    this.stopRequested = false;
    this.early = [];
    try {
      const client = await this.deps.kernel.ensureStarted();
      const { turnId, attachedBytes } = await start(client);
      this.turnId = turnId;
      this.turn.moveTo("running");
      this.post({
        type: "chat/turn",
        turnId,
        message,
        ...(attachments.length ? { attachments, ...(attachedBytes ? { attachedBytes } : {}) } : {}),
        ...(again ? { again } : {}),
      });
      const early = this.early.filter((n) => n.turnId === turnId);
      this.early = [];
      for (const n of early) this.onTurnEvent(n);
      if (this.stopRequested && this.turnId === turnId) await this.stop();
    } catch (e) {
      this.early = [];
      const notice = `${failure}: ${errorMessage(e)}`;
      this.deps.log.warn(`chat: ${notice}`);
      this.post({ type: "chat/notice", level: "error", message: notice });
      if (typed) this.post(unsent(message, attachments));
      this.turn.moveTo("idle");
    }
  }

  /** Stop: turn/cancel for the running turn (remembered if turn/start has not answered yet). */
  async stop(): Promise<void> {
    const turnId = this.turnId;
    if (!this.turn.busy) return;
    if (!turnId) {
      this.stopRequested = true;
      return;
    }
    try {
      const client = await this.deps.kernel.ensureStarted();
      const ack = await client.request("turn/cancel", { turnId });
      this.deps.log.info(
        `chat: cancel of run ${turnId} requested (dispatch attempted: ${ack.dispatchAttempted}, adapter acknowledged: ${ack.adapterAcknowledged})`,
      );
    } catch (e) {
      this.post({ type: "chat/notice", level: "error", message: `Stop failed: ${errorMessage(e)}` });
    }
  }

  /** New chat: forget the current session; the next message creates a fresh one. */
  async newChat(): Promise<void> {
    if (this.turn.busy) {
      this.post({ type: "chat/notice", level: "info", message: "A turn is still running: press Stop before starting a new chat." });
      return;
    }
    this.sessionId = undefined;
    await this.deps.store.set(undefined);
    this.post({ type: "chat/transcript", sessionId: null, messages: [] });
  }

  /**
   * A chat that cannot go on (its tools or folder changed since it began) continues in a new one
   * (issue 25, item 2): the new chat starts empty and the box gets the old conversation as a chip,
   * sent with the person's next message; the old chat stays in History as it was.
   */
  async continueInNewChat(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return this.newChat();
    let carried: string | null;
    try {
      const client = await this.deps.kernel.ensureStarted();
      carried = carriedConversation((await client.request("session/history", { sessionId })).messages);
    } catch (e) {
      this.post({ type: "chat/notice", level: "error", message: `Could not read the chat to carry it over: ${errorMessage(e)}` });
      return;
    }
    await this.newChat();
    if (this.sessionId) return; // the new chat was refused (a turn runs): nothing moves
    this.post({ type: "chat/unsent", text: "", ...(carried ? { carried } : {}) });
  }

  /** The chat the view shows (none: a new chat, created by its first message). */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  /** Reopens a past chat from the history list: it becomes the current one, remembered across reloads. */
  async openSession(sessionId: string): Promise<void> {
    if (this.turn.busy) {
      this.post({ type: "chat/notice", level: "info", message: "A turn is still running: press Stop before opening another chat." });
      return;
    }
    this.sessionId = sessionId;
    await this.deps.store.set(sessionId);
    await this.showTranscript();
    // Said on opening, before anything is typed: sending would need the chat's own model (issue 25 item 2).
    const mismatch = await this.modelChoice.mismatch(sessionId);
    if (mismatch && this.sessionId === sessionId)
      this.post({ type: "chat/notice", level: "info", kind: "modelMismatch", message: mismatch });
  }

  /** "Use this chat's model": this chat's next message loads its own model, the person having chosen it. */
  async keepChatModel(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    this.modelChoice.keep(sessionId);
    const session = await this.modelChoice.session(sessionId);
    const name = session ? modelDisplayName(session.model) : "its own model";
    this.post({ type: "chat/notice", level: "info", message: `This chat goes on with ${name}: your next message loads it.` });
  }

  /**
   * "Use the old tools for this chat" (issue 25 item 2): the kernel lets this chat go on with the
   * tools it began with, and the message the change refused is sent again. A refusal says why and
   * leaves "Continue in a new chat" as the way on.
   */
  async chooseEarlierTools(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    let refused: string | null;
    try {
      refused = await keepChatTools(await this.deps.kernel.ensureStarted(), sessionId, this.deps.restricted());
    } catch (e) {
      this.post({ type: "chat/notice", level: "error", kind: "drift", message: `${NOT_KEPT}: ${errorMessage(e)}` });
      return;
    }
    if (this.sessionId !== sessionId) return;
    this.post({ type: "chat/notice", level: "info", message: KEPT_TOOLS });
    if (refused) await this.send(refused, [], undefined, true);
  }

  /**
   * The person switched the model (issue 25 item 2): a chat made with another one goes on in a new
   * chat that carries its conversation, and the view says so; the old chat stays in History as it was.
   */
  async modelSwitched(spec: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    const session = await this.modelChoice.session(sessionId);
    if (session?.model === spec) return; // back to this chat's own model: it simply goes on
    await this.continueInNewChat();
    if (this.sessionId) return; // refused (a turn runs): continueInNewChat said why
    this.post({ type: "chat/notice", level: "info", message: switchedAway(session ?? { model: "another model", title: "" }, spec) });
  }

  /** Compact (issue 13): condenses the chat's earlier turns for the model now; the view marks them. */
  async compact(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.post({ type: "chat/notice", level: "info", message: "Nothing to compact: this chat has no messages yet." });
      return;
    }
    if (this.turn.busy) {
      this.post({ type: "chat/notice", level: "info", message: "A turn is still running: compact the chat when it ends." });
      return;
    }
    try {
      const client = await this.deps.kernel.ensureStarted();
      const { condensation } = await client.request("session/compact", { sessionId });
      if (this.sessionId !== sessionId) return;
      if (condensation) await this.showTranscript();
      this.post({
        type: "chat/notice",
        level: "info",
        message: condensation
          ? "Compacted: the model now sees a summary of the earlier turns " +
            `(${condensation.tokensBefore} → ${condensation.tokensAfter} tokens). The messages stay in the chat.`
          : "Nothing to compact yet: only the last turn is in the chat, and it is always kept whole.",
      });
    } catch (e) {
      this.post({ type: "chat/notice", level: "error", message: `Compact failed: ${errorMessage(e)}` });
    }
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  /** The kernel condensed a chat between turns (issue 30, item 3): the open one shows its marker now. */
  private onCondensed(sessionId: string): void {
    // Journaled only while no turn runs; during one of this window's own, the next load shows it.
    if (sessionId === this.sessionId && !this.turn.busy) void this.showTranscript();
  }

  private async createSession(client: KernelClient, model: string, firstMessage: string): Promise<string> {
    const title = firstMessage.replace(/\s+/g, " ").trim().slice(0, 80);
    const { sessionId } = await client.request("session/create", { model, title });
    this.sessionId = sessionId;
    await this.deps.store.set(sessionId);
    this.deps.log.info(`chat: session ${sessionId} created with model ${model}`);
    // The view names the new chat and its model in its header at once.
    this.post(transcriptMessage(await client.request("session/history", { sessionId })));
    return sessionId;
  }

  /**
   * turn/follow: this connection takes over the turn's stream (later events, approval requests).
   * The events it streamed so far when it still runs; undefined when it does not. Events that
   * arrive meanwhile are held in `early` and replayed after those.
   */
  private async follow(client: KernelClient, turnId: string): Promise<TurnEvent[] | undefined> {
    this.turnId = undefined;
    this.early = [];
    this.turn.moveTo("following");
    try {
      const answer = await client.request("turn/follow", { turnId });
      if (answer.following) {
        this.deps.log.info(`chat: following turn ${turnId}, which runs in the kernel (${answer.events.length} events so far)`);
        return answer.events;
      }
    } catch (e) {
      this.deps.log.warn(`chat: could not follow run ${turnId}: ${errorMessage(e)}`);
    }
    this.early = [];
    this.turn.moveTo("idle");
    return undefined;
  }

  private onTurnEvent(n: TurnEventParams): void {
    if (n.sessionId !== this.sessionId) return;
    if (!this.turnId) {
      if (this.turn.busy) this.early.push(n);
      return;
    }
    if (n.turnId !== this.turnId) return;
    this.post({ type: "chat/event", turnId: n.turnId, event: n.event });
    if (n.event.type === "completed") {
      this.deps.log.info(`chat: turn ${n.turnId} ${n.event.status}${n.event.error ? `: ${n.event.error.message}` : ""}`);
      this.turnId = undefined;
      this.turn.moveTo("idle");
    }
  }

  private onKernelState(state: KernelState): void {
    if (!this.turn.busy || !this.turnId) return;
    // Disconnected: the kernel may still run the turn (only the connection broke), or it died.
    // Which one is known once connected again: the history and turn/follow say.
    if (state.kind === "restarting" || state.kind === "starting") {
      this.lostReason ??= state.kind === "restarting" ? state.reason : "the kernel was restarted";
      if (this.turn.phase === "running") this.turn.moveTo("disconnected");
      return;
    }
    if (state.kind === "ready") {
      if (this.lostReason !== undefined) void this.showTranscript();
      return;
    }
    this.endWithoutAnswer(state.kind === "failed" ? state.message : "the kernel stopped");
  }

  /** The turn will send no `completed` to this window; why, unless it completed. */
  private endWithoutAnswer(why: string | undefined): void {
    if (why !== undefined) {
      this.post({
        type: "chat/notice",
        level: "error",
        message: `The turn ended without an answer: ${why}. What it finished before that stays in this chat.`,
      });
    }
    this.turnId = undefined;
    this.lostReason = undefined;
    this.turn.moveTo("idle");
  }

  private post(message: ToWebview): void {
    this.view?.(message);
  }
}

function unsent(text: string, attachments: Attachment[]): ToWebview {
  return { type: "chat/unsent", text, ...(attachments.length ? { attachments } : {}) };
}

/** The history before the running turn: up to its user message, the last one (one turn runs per session). */
function throughLastUserMessage(messages: HistoryMessage[]): HistoryMessage[] {
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.slice(0, last + 1);
}

// The chat's turn, as data (issue 22 item 6; STYLE.md: state machines are data): the phases a chat
// goes through for its one turn in flight and the moves allowed between them, in one table that the
// controller's one writer (`ChatTurnState.moveTo`) checks and the tests walk. Plain code, no `vscode`.

/**
 * idle: no turn. starting: Send was pressed and turn/start has not answered (events wait in the early
 * buffer; Stop is remembered). following: turn/follow is taking over a turn that runs in the kernel
 * (after a reload or a reconnect). running: the turn's events are forwarded to the view.
 * disconnected: the connection dropped while it ran; the next connection says what became of it.
 */
export type ChatTurnPhase = "idle" | "starting" | "following" | "running" | "disconnected";

export const CHAT_TURN_MOVES: Readonly<Record<ChatTurnPhase, readonly ChatTurnPhase[]>> = {
  idle: ["starting", "following"],
  // turn/start answered, or it could not start.
  starting: ["running", "idle"],
  // The kernel streams the turn to this window, or it no longer runs.
  following: ["running", "idle"],
  // completed (or ended while away, or the kernel failed); the view reloaded; the connection dropped.
  running: ["idle", "following", "disconnected"],
  // Connected again: follow the turn, or learn it ended.
  disconnected: ["following", "idle"],
};

/** The controller's phase, changed only through `moveTo`, which refuses a move the table does not name. */
export class ChatTurnState {
  private current: ChatTurnPhase = "idle";

  constructor(private readonly onBusyChange: (busy: boolean) => void) {}

  get phase(): ChatTurnPhase {
    return this.current;
  }

  /** True from Send until the turn's end: the view's Send is off and Stop on. */
  get busy(): boolean {
    return this.current !== "idle";
  }

  /** Moves to `to` (staying put is no move); tells `onBusyChange` when busy flips. Throws on a move the table forbids. */
  moveTo(to: ChatTurnPhase): void {
    const from = this.current;
    if (from === to) return;
    if (!CHAT_TURN_MOVES[from].includes(to)) {
      throw new Error(`the chat's turn cannot move from ${from} to ${to} (allowed: ${CHAT_TURN_MOVES[from].join(", ") || "none"})`);
    }
    this.current = to;
    if ((from === "idle") !== (to === "idle")) this.onBusyChange(to !== "idle");
  }
}

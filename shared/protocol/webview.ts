// Messages between the chat webview and the extension host. Validated on both sides.
import { z } from "zod";
import { Attachment, MAX_ATTACHMENTS } from "./attachments.js";
import { requests } from "./methods.js";
import { ModelFromWebview, ModelToWebview } from "./modelView.js";
import { CallDecision } from "./principals.js";
import { UndoFromWebview, UndoToWebview } from "./undoView.js";
import { InstructionsFromWebview, InstructionsToWebview } from "./instructionsView.js";
import { RewindFromWebview, RewindToWebview } from "./rewindView.js";
import { ModesFromWebview, ModesToWebview } from "./modesView.js";
import { PromptsFromWebview, PromptsToWebview } from "./promptsView.js";
import {
  Condensation,
  EffectClass,
  HistoryMessage,
  Id,
  RunEnding,
  SessionSummary,
  ToolCallRecord,
  ToolInvocationStatus,
  TurnEvent,
} from "./records.js";

export const KernelInfo = requests.initialize.result;

/** A tool call's state in the kernel's ledger (issue 15: a card shows it), by call id. */
export const CallStates = z.record(
  Id,
  z.object({
    status: ToolInvocationStatus,
    reason: z.string().nullable(),
    /** None: nobody was asked. */
    decision: CallDecision.optional(),
  }),
);
export type CallStates = z.infer<typeof CallStates>;

/** How runs ended that did more than complete (issue 25 item 11), by the seq of each run's last message: the view puts each after it. */
export const RunEndings = z.record(z.string().regex(/^\d+$/), RunEnding);
export type RunEndings = z.infer<typeof RunEndings>;

/** Commands a button in the view may run: an error's action (issue 15: every error with its action). */
export const ViewCommand = z.enum(["hearth.selectModel", "hearth.showLog"]);

/** Extension → webview. */
export const ToWebview = z.discriminatedUnion("type", [
  z.object({ type: z.literal("kernel/starting") }),
  // joined: another client (a terminal, another window) started the folder's kernel; differences:
  // its settings that are not this window's, each a sentence (issue 12). Restarting applies this window's.
  z.object({
    type: z.literal("kernel/ready"),
    info: KernelInfo,
    joined: z.boolean().optional(),
    differences: z.array(z.string()).optional(),
  }),
  z.object({ type: z.literal("kernel/error"), message: z.string() }),
  // A crashed kernel is restarted with backoff; the view says so instead of going blank.
  z.object({ type: z.literal("kernel/restarting"), delayMs: z.number().int().nonnegative(), reason: z.string() }),
  // The chat's transcript is on its way (the kernel may still be starting, issue 25 item 11): an
  // empty view says so instead of looking like a new chat.
  z.object({ type: z.literal("chat/loading") }),
  // The chat: the whole committed transcript of the current session (none: an empty, new chat).
  // session: its title and model; condensations: what the model sees instead of older messages
  // (issue 13); calls: the ledger's state of each call (issue 15).
  z.object({
    type: z.literal("chat/transcript"),
    sessionId: Id.nullable(),
    messages: z.array(HistoryMessage),
    session: SessionSummary.optional(),
    condensations: z.array(Condensation).optional(),
    calls: CallStates.optional(),
    endings: RunEndings.optional(),
    // issue 26 item 4: the latest page only; older messages remain, asked for with chat/older on scroll.
    hasOlder: z.boolean().optional(),
  }),
  // An older page of the chat the view shows (answering chat/older): whole turns, oldest first,
  // with their calls' ledger state; hasOlder: messages before these remain. failed: why the page
  // could not be read (the view says so and offers to try again).
  z.object({
    type: z.literal("chat/older"),
    sessionId: Id,
    messages: z.array(HistoryMessage),
    calls: CallStates,
    endings: RunEndings.optional(),
    hasOlder: z.boolean(),
    failed: z.string().optional(),
  }),
  // The history list (issue 15): this folder's chats, newest first, hidden ones left out.
  z.object({ type: z.literal("session/list"), sessions: z.array(SessionSummary), currentSessionId: Id.nullable() }),
  // A turn the kernel accepted: the view shows the person's message and streams the run's events.
  // message null: a turn already running when the view (re)loaded; its committed part is in the
  // transcript, the rest streams in.
  // attachedBytes: what the kernel read for each attachment, in order (issue 29 item 3: each chip shows its size).
  // again: the message was refused just before and the chat shows it already; it is sent once more.
  z.object({
    type: z.literal("chat/turn"),
    turnId: Id,
    message: z.string().nullable(),
    attachments: z.array(Attachment).optional(),
    attachedBytes: z.array(z.number().int().nonnegative()).optional(),
    again: z.literal(true).optional(),
  }),
  // A context chip the extension resolved for the next message (issue 15 item 5): the current file,
  // the selection or a picked file, inside the workspace folder.
  z.object({ type: z.literal("context/add"), attachment: Attachment }),
  z.object({ type: z.literal("chat/event"), turnId: Id, event: TurnEvent }),
  // Who decided a call's approval, as it was journaled (issue 27: a rule's decision shows while the turn runs).
  z.object({ type: z.literal("chat/decision"), callId: Id, decision: CallDecision }),
  // Something the person should read that is not part of a turn (no model set, a refused request).
  // kind modelMismatch: the chat was made with another model than the one set (issue 25 item 2): the
  // notice offers a new chat with the set model or the chat's own.
  z.object({
    type: z.literal("chat/notice"),
    level: z.enum(["info", "error"]),
    message: z.string(),
    // drift: the chat cannot go on with its earlier tools (issue 25 item 2): it offers a new chat.
    kind: z.enum(["modelMismatch", "drift"]).optional(),
  }),
  // The extension is the source of truth for whether a message is in flight (Send off, Stop on).
  z.object({ type: z.literal("chat/busy"), busy: z.boolean() }),
  // A message that was not sent (no model yet, the kernel refused it): back into the box with its
  // chips, never lost (issue 25 item 6).
  // carried: an earlier chat's conversation, continued in a new chat (issue 25 item 2), sent with the next message.
  z.object({
    type: z.literal("chat/unsent"),
    text: z.string(),
    attachments: z.array(Attachment).optional(),
    carried: z.string().optional(),
  }),
  // The focus command (Ctrl+Alt+H): the message box takes the focus, so typing lands in it (issue 25 item 5).
  z.object({ type: z.literal("chat/focus") }),
  // The model: the welcome's choices when none is set, its state and a download's progress (issue 10).
  ...ModelToWebview,
  ...UndoToWebview,
  ...InstructionsToWebview,
  ...RewindToWebview,
  ...ModesToWebview,
  ...PromptsToWebview,
  // Restricted Mode (an untrusted folder): the view says what Hearth may not do here, and why.
  z.object({ type: z.literal("workspace/trust"), restricted: z.boolean() }),
  // A call waiting for the person (issue 14): asked on its card in the chat. `ask` is what it will do
  // (the exact command and folder, or URL), as the kernel's preview says it.
  // `alwaysAllow`: the narrowest workspace rule the card may offer to write (issue 27), e.g. `npm test`.
  z.object({
    type: z.literal("approval/pending"),
    turnId: Id,
    call: ToolCallRecord,
    effectClass: EffectClass,
    ask: z.string(),
    alwaysAllow: z.string().optional(),
  }),
  // The one answer the request got (from the card, a notification, the editor, or the turn's end).
  z.object({ type: z.literal("approval/settled"), callId: Id, decision: z.enum(["approve", "deny"]), reason: z.string() }),
  // A proposed edit waits for the person in its file (issue 25 item 9): its card says where, with a
  // button that shows it; decided (by anyone), the card's line goes.
  z.object({ type: z.literal("edit/waiting"), callId: Id, file: z.string() }),
  z.object({ type: z.literal("edit/decided"), callId: Id }),
]);
export type ToWebview = z.infer<typeof ToWebview>;

/** Webview → extension. */
export const FromWebview = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("kernel/restart") }),
  z.object({
    type: z.literal("chat/send"),
    text: z.string().min(1).max(1_000_000),
    attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional(),
    // The mode the person picked for this message (issue 27); absent: Code.
    mode: z.string().min(1).max(40).optional(),
  }),
  // Attach the current file, the selection, or a file picked from the workspace (@).
  z.object({ type: z.literal("context/request"), what: z.enum(["file", "selection", "pick"]) }),
  z.object({ type: z.literal("chat/stop") }),
  z.object({ type: z.literal("chat/new") }),
  // "Run in background": the message starts a background task (issue 12) instead of a chat turn.
  z.object({ type: z.literal("chat/background"), text: z.string().min(1).max(1_000_000) }),
  ...ModelFromWebview,
  ...UndoFromWebview,
  ...InstructionsFromWebview,
  ...RewindFromWebview,
  ...ModesFromWebview,
  ...PromptsFromWebview,
  z.object({ type: z.literal("workspace/manageTrust") }),
  // Allow / Deny on an approval card (issue 14); the first answer to a request is the one sent.
  // `alwaysAllow` (with approve): also write the rule the request offered (issue 27).
  z.object({ type: z.literal("approval/answer"), callId: Id, decision: z.enum(["approve", "deny"]), alwaysAllow: z.boolean().optional() }),
  // "Show in editor" on a proposed edit's card: its file takes the focus at the first hunk.
  z.object({ type: z.literal("edit/reveal"), callId: Id }),
  // A code block's Copy and Insert at cursor (issue 15): the extension owns the clipboard and editors.
  z.object({ type: z.literal("code/copy"), text: z.string().max(10_000_000) }),
  z.object({ type: z.literal("code/insert"), text: z.string().max(10_000_000) }),
  // Apply to file: the kernel proposes write_file(file, text) for approval in the file (issue 15).
  // file: the one the code fence names; absent, the extension takes the active editor's or asks.
  z.object({ type: z.literal("code/apply"), text: z.string().max(10_000_000), file: z.string().min(1).max(4096).optional() }),
  // Condense the current session's earlier turns now (issue 13: session/compact).
  z.object({ type: z.literal("chat/compact") }),
  // Continue a chat that cannot go on (its tools or folder changed) in a new chat carrying its conversation.
  z.object({ type: z.literal("chat/continueInNewChat") }),
  // Go on with the chat's own model although another is set (issue 25 item 2): its next message loads it.
  z.object({ type: z.literal("chat/keepChatModel") }),
  // Go on with the tools the chat began with although others are set (issue 25 item 2): the kernel decides.
  z.object({ type: z.literal("chat/keepChatTools") }),
  // issue 26 item 4: the page of the chat before `beforeSeq` (the oldest message the view holds), as
  // the person scrolls up; chat/latest: the latest page again (the view let the newest pages go).
  z.object({ type: z.literal("chat/older"), sessionId: Id, beforeSeq: z.number().int().positive() }),
  z.object({ type: z.literal("chat/latest") }),
  z.object({ type: z.literal("command/run"), command: ViewCommand }),
  // The history list (issue 15): ask for it, reopen, rename, hide (the journal keeps a hidden chat).
  z.object({ type: z.literal("session/list") }),
  z.object({ type: z.literal("session/open"), sessionId: Id }),
  z.object({ type: z.literal("session/rename"), sessionId: Id, title: z.string().trim().min(1).max(200) }),
  z.object({ type: z.literal("session/hide"), sessionId: Id }),
  // Erase (issue 15): the extension asks for an explicit, irreversible confirmation first.
  z.object({ type: z.literal("session/erase"), sessionId: Id }),
]);
export type FromWebview = z.infer<typeof FromWebview>;

// The whole surface in one glance: "area/verb": { params, result }. Both ends validate with these
// schemas; types are inferred, never written twice (STYLE.md).
import { z } from "zod";
import { MAX_REASON_CHARS } from "../boundedText.js";
import {
  ApprovalPreview,
  Condensation,
  EffectClass,
  ExecutionRole,
  GenerationOptions,
  HistoryMessage,
  Id,
  ModelState,
  TurnSummary,
  SessionSummary,
  ToolCallRecord,
  TurnEvent,
} from "./records.js";
import { Attachment, MAX_ATTACHMENTS } from "./attachments.js";
import { TaskSummary } from "./tasks.js";

/** The problems a write left, as appended to its result at most: a few dozen lines, never the whole Problems list. */
export const MAX_DIAGNOSTICS_REPORT_CHARS = 8_000;
/** The write both diagnostics requests are about: the call and the file as the model named it. */
const WriteDiagnosticsParams = z.object({ sessionId: Id, turnId: Id, callId: Id, path: z.string().min(1).max(4096) });
import { ApprovalDecisionRecord, CallDecision, ClientPrincipal, DecisionSurface, TurnOrigin } from "./principals.js";
import { TurnEdits, UndoFileOutcome } from "./undo.js";
import { InstructionsInForce } from "./instructions.js";
import { ModeImport, ModeList } from "./modes.js";
import { PromptEditor, PromptExpansion, PromptList } from "./prompts.js";
import { McpConfigProblemView, McpResourceList, McpServerView } from "./mcp.js";
import { RewindFileOutcome, RewindPreview, RewindRecord, RewindScope } from "./rewind.js";

const Empty = z.object({}).strict().optional();
/** What one completion request may carry around the cursor, each side: the editor sends a bounded window. */
export const COMPLETION_CONTEXT_CHARS = 64 * 1024;
/** The ring of chunks from recently edited and opened files a completion may carry (llama.vscode's 16), and each chunk's characters at most. */
export const COMPLETION_CHUNKS = 16;
export const COMPLETION_CHUNK_CHARS = 8 * 1024;

/** Client → kernel requests. */
export const requests = {
  initialize: {
    params: z.object({
      clientName: z.string().min(1).max(100),
      clientVersion: z.string().max(100),
      protocolVersion: z.number().int().positive(),
      // Who this client is (issue 24): its kind, its folder (a client of another folder is refused)
      // and whether it can ask a person. A client that names none is never asked for a task's approval.
      client: ClientPrincipal.optional(),
      /**
       * The client's own start settings, in the form of `settings` below (shared/node/kernelSettingsView.ts).
       * Where they are stricter than the kernel's in a knob that narrows a turn, they apply to the runs
       * this client starts (issue 22, item 2). Absent: the kernel's settings alone.
       */
      settings: z.record(z.string(), z.string().max(4096)).optional(),
    }),
    result: z.object({
      kernelVersion: z.string(),
      protocolVersion: z.number().int(),
      workspaceRoot: z.string(),
      journalPath: z.string(),
      /** The kernel's process id: clients of a shared kernel (issue 12) name it in logs and can stop it. */
      kernelPid: z.number().int().positive(),
      capabilities: z.object({
        implementedMethods: z.array(z.string()),
        adapters: z.array(z.string()),
        tools: z.array(z.string()),
      }),
      /**
       * The start settings (environment) that change what the kernel does, as it read them ("" when
       * unset; a secret as a short digest, never its value). A client that joins a kernel someone
       * else started compares them with its own (issue 12).
       */
      settings: z.record(z.string(), z.string()),
      /** What this client's stricter settings take away from the runs it starts, one sentence each; empty when nothing (and from a kernel that predates it, which narrows nothing). */
      narrowed: z.array(z.string()).default([]),
    }),
  },
  "session/create": {
    params: z.object({
      title: z.string().max(200).optional(),
      model: z.string().min(1).max(4096).optional(),
      role: ExecutionRole.optional(),
      systemPrompt: z.string().max(100_000).optional(),
      options: GenerationOptions.optional(),
    }),
    result: z.object({ sessionId: Id, profileGeneration: z.number().int() }),
  },
  "session/list": {
    params: z.object({ limit: z.number().int().positive().max(1000).optional() }).optional(),
    result: z.object({ sessions: z.array(SessionSummary) }),
  },
  "session/history": {
    // issue 26 item 4: with `limit`, a page: the latest `limit` messages before `beforeSeq` (or the
    // latest of all), the runs they belong to, and `hasOlder` when messages before the page remain.
    // Without it, the whole history (and no `hasOlder`).
    params: z
      .object({
        sessionId: Id,
        limit: z.number().int().positive().max(10_000).optional(),
        beforeSeq: z.number().int().positive().optional(),
      })
      .refine((p) => p.beforeSeq === undefined || p.limit !== undefined, {
        message: "beforeSeq asks for an older page: give the page's size as limit too",
      }),
    // `condensations`: what the model is shown in place of older messages (issue 13); the messages stay here in full.
    result: z.object({
      session: SessionSummary,
      messages: z.array(HistoryMessage),
      runs: z.array(TurnSummary),
      condensations: z.array(Condensation),
      hasOlder: z.boolean().optional(),
      // issue 24: who started each run, and every approval decision of its calls (who, where, when).
      origins: z.array(TurnOrigin).optional(),
      decisions: z.array(ApprovalDecisionRecord).optional(),
      // issue 29: every rewind of the session, oldest first; a view folds the messages of one not undone under "rewound".
      rewinds: z.array(RewindRecord).optional(),
    }),
  },
  // The chat view's history list (issue 15): a new title; hide leaves the session out of session/list
  // and keeps everything it journaled (nothing is erased).
  "session/rename": {
    params: z.object({ sessionId: Id, title: z.string().trim().min(1).max(200) }),
    result: z.object({ session: SessionSummary }),
  },
  "session/hide": {
    params: z.object({ sessionId: Id }),
    result: z.object({ sessionId: Id, hidden: z.literal(true) }),
  },
  // Erase (issue 15): explicit and irreversible, unlike hide. The session's messages, attachments,
  // summaries, call inputs and results and kept pre-images leave the journal; refused while a turn of it runs.
  "session/erase": {
    params: z.object({ sessionId: Id }),
    result: z.object({ sessionId: Id, erased: z.literal(true), messages: z.number().int().nonnegative() }),
  },
  // Issue 25 item 2: the session goes on with the tools it was pinned with (harness #19) although the
  // kernel offers others now; journaled, for this session only. Refused where the kernel cannot offer
  // one of them, where it would give Restricted Mode (`readOnly`) a writing tool, or the folder changed.
  "session/keepTools": {
    params: z.object({ sessionId: Id, readOnly: z.boolean().optional() }),
    result: z.object({ sessionId: Id, tools: z.array(z.string()) }),
  },
  // Condenses every turn but the last into one summary now (issue 13: `hearth compact`, the chat's Compact).
  "session/compact": {
    params: z.object({ sessionId: Id }),
    result: z.object({ condensation: Condensation.nullable() }),
  },
  "turn/start": {
    params: z.object({
      sessionId: Id,
      message: z.string().min(1).max(1_000_000),
      options: GenerationOptions.optional(),
      // The client's folder is untrusted (VS Code's Restricted Mode): the turn is offered read-only
      // tools only, inside the session's unchanged authority ceiling (issue 10, item 6).
      readOnly: z.boolean().optional(),
      // Context the person attached (issue 15): the kernel reads each through its anchored read_file,
      // appends the text to the message the model reads, and journals what was attached.
      attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional(),
      // The mode for this message (issue 27, item 2): code (default), ask, plan, or a workspace's
      // .hearth/modes/NAME.md. It only narrows the tools offered, inside the session's ceiling.
      mode: z.string().min(1).max(40).optional(),
    }),
    // attachedBytes: the size of what the kernel read or took for each attachment, in order (its chip shows it).
    result: z.object({ turnId: Id, attemptId: Id, attachedBytes: z.array(z.number().int().nonnegative()).optional() }),
  },
  // "Apply to file" on a chat code block (issue 15): a person's action, run as a turn of the session
  // whose one call is write_file(path, content). It takes the normal approval path (the proposal and
  // its lenses in the file); the kernel writes only after Accept, and the turn's answer says the outcome.
  "turn/apply": {
    params: z.object({
      sessionId: Id,
      path: z.string().min(1).max(4096),
      content: z.string().max(10_000_000),
      readOnly: z.boolean().optional(),
    }),
    result: z.object({ turnId: Id, attemptId: Id }),
  },
  "turn/cancel": {
    params: z.object({ turnId: Id }),
    result: z.object({
      turnId: Id,
      // control plane #13: cancellation acknowledgement is truthful; these two are separate facts.
      dispatchAttempted: z.boolean(),
      adapterAcknowledged: z.boolean(),
    }),
  },
  // A client that (re)connects while a turn runs (a window reload) takes over its stream: `events`
  // are those the turn streamed so far (adjacent deltas joined), and its later events and approval
  // requests go to this client. following false: the run is not running (events empty).
  "turn/follow": {
    params: z.object({ turnId: Id }),
    result: z.object({ turnId: Id, following: z.boolean(), events: z.array(TurnEvent) }),
  },
  // Undo of a turn's edits (issue 14 item 5): the turns of a session that wrote files, oldest first.
  "turn/edits": {
    params: z.object({ sessionId: Id }),
    result: z.object({ turns: z.array(TurnEdits) }),
  },
  // A person's action, never automatic: puts every file the turn wrote back to its bytes before the
  // turn and removes files it created; a file changed since (or already undone) is refused alone.
  "turn/undoEdits": {
    params: z.object({ turnId: Id }),
    result: z.object({ turnId: Id, files: z.array(UndoFileOutcome) }),
  },
  // MCP servers (issue 28, docs/mcp.md): every configured server with its state and tools, and the
  // configuration problems found. Reading the list starts nothing.
  "mcp/list": {
    params: Empty,
    result: z.object({ servers: z.array(McpServerView), problems: z.array(McpConfigProblemView) }),
  },
  // The person confirmed a workspace or imported server after seeing its command line: this exact
  // configuration (its digest) may start from now on; a changed one asks again. `inputs` are the
  // values of its `${input:…}` references, kept in the kernel's memory only, never journaled.
  "mcp/confirm": {
    params: z.object({
      name: z.string().min(1).max(40),
      configDigest: z.string().min(1).max(128),
      inputs: z.record(z.string().max(200), z.string().max(8192)).optional(),
    }),
    result: z.object({ server: McpServerView }),
  },
  // The person's restart, turn off or turn on of one server (the MCP view, `hearth mcp restart`).
  "mcp/control": {
    params: z.object({ name: z.string().min(1).max(40), action: z.enum(["restart", "off", "on"]) }),
    result: z.object({ server: McpServerView }),
  },
  // The running servers' resources (issue 28, item 5), for the chat's `@` picker: at most 1000 a
  // server, none in Restricted Mode (`readOnly`). Listing starts no server; attaching one names it
  // (kind "resource") and the kernel reads it when the message is sent.
  "mcp/resources": {
    params: z.object({ readOnly: z.boolean().optional() }).optional(),
    result: McpResourceList,
  },
  // Rewind (issue 29 item 1, docs/rewind.md): what rewinding to the user message at `toSeq` would do,
  // acting on nothing: the messages the model would stop seeing and each file the later turns wrote.
  "session/rewindPreview": {
    params: z.object({ sessionId: Id, toSeq: z.number().int().positive() }),
    result: RewindPreview,
  },
  // A person's action: the conversation (that message and every later one leave the model's view; the
  // journal keeps them), the files (each goes back to its bytes before those turns; a file changed
  // since is refused alone), or both. Journaled as one event; refused while a turn of the session runs.
  "session/rewind": {
    params: z.object({ sessionId: Id, toSeq: z.number().int().positive(), scope: RewindScope }),
    result: RewindRecord,
  },
  // Undoes a rewind: its messages come back into the model's view and each file it put back returns
  // to the bytes the rewind replaced, if it still holds what the rewind left (else refused alone).
  "session/undoRewind": {
    params: z.object({ rewindId: Id }),
    result: z.object({ rewindId: Id, files: z.array(RewindFileOutcome) }),
  },
  // Fork (issue 29 item 2, docs/fork.md): a new session whose history is what the original's model
  // sees before its user message #atSeq, listed with its origin. That message comes back as `draft`,
  // for the message box: the person edits it (the point of a fork) and sends it as the fork's first turn.
  "session/fork": {
    params: z.object({ sessionId: Id, atSeq: z.number().int().positive() }),
    result: z.object({ session: SessionSummary, draft: z.string(), copied: z.number().int().nonnegative() }),
  },
  // Background tasks (issue 12, docs/tasks.md): a leaf session in its own workstream, queued behind
  // HEARTH_MAX_TASKS running ones. `tools` narrows the ceiling (the kernel's offered tools), never widens it.
  "task/start": {
    params: z
      .object({
        // With `forkOf` and no instruction, the task's instruction is the forked message itself.
        instruction: z.string().min(1).max(1_000_000).optional(),
        title: z.string().min(1).max(200).optional(),
        model: z.string().min(1).max(4096).optional(),
        tools: z.array(z.string().min(1).max(64)).max(100).optional(),
        // The starting client's folder is untrusted (Restricted Mode): the task is offered read-only
        // tools only, pinned for its life; widening it is a new task started by a trusted client (issue 24).
        readOnly: z.boolean().optional(),
        // Fork into a background task (issue 29 item 2, docs/fork.md): the task's session starts with the
        // history the chat's model sees before its user message #atSeq; the chat is left as it was.
        forkOf: z.object({ sessionId: Id, atSeq: z.number().int().positive() }).optional(),
      })
      .refine((p) => p.instruction !== undefined || p.forkOf !== undefined, {
        message: "say what the task should do as instruction (it may be left out only when forkOf names the message to start from)",
      }),
    result: z.object({ task: TaskSummary }),
  },
  // A person's answer to the approval a task waits for (issue 24: `hearth task approve|deny ID`).
  // answered false: the task waits for no approval now.
  "task/answer": {
    params: z.object({
      taskId: Id,
      decision: z.enum(["approve", "deny"]),
      reason: z.string().trim().min(1).max(MAX_REASON_CHARS).optional(),
    }),
    result: z.object({ taskId: Id, answered: z.boolean(), callId: Id.nullable() }),
  },
  "task/list": {
    params: z.object({ limit: z.number().int().positive().max(1000).optional() }).optional(),
    result: z.object({ tasks: z.array(TaskSummary) }),
  },
  // The task and its result (the final answer, recorded as an artifact); its transcript is session/history.
  "task/show": {
    params: z.object({ taskId: Id }),
    result: z.object({ task: TaskSummary, result: z.string().nullable() }),
  },
  "task/cancel": {
    params: z.object({ taskId: Id }),
    // control plane #13: cancellation acknowledgement is truthful, as for turn/cancel.
    result: z.object({ task: TaskSummary, dispatchAttempted: z.boolean(), adapterAcknowledged: z.boolean() }),
  },
  // An orphaned task (the kernel stopped while it ran): a new run of its session, told what the
  // interrupted one did; calls whose outcome is unknown are never re-run by the kernel.
  "task/resume": {
    params: z.object({ taskId: Id }),
    result: z.object({ task: TaskSummary }),
  },
  // An orphaned task the person will not resume: it ends cancelled.
  "task/dismiss": {
    params: z.object({ taskId: Id }),
    result: z.object({ task: TaskSummary }),
  },
  // Project instructions (issue 27, item 1): the instruction files and the person's own rules the next
  // turn would be shown, each with its token cost; `readOnly` as the client's folder is (Restricted Mode
  // shows none of the workspace's). A switch applies from the next turn; a running one keeps its own.
  "instructions/list": {
    params: z.object({ readOnly: z.boolean().optional() }).optional(),
    result: InstructionsInForce,
  },
  // issue 27, item 2: the modes a turn may be started in (turn/start `mode`); `readOnly` as the client's
  // folder is (Restricted Mode reads none of the workspace's .hearth/modes).
  "modes/list": {
    params: z.object({ readOnly: z.boolean().optional() }).optional(),
    result: ModeList,
  },
  // Roo Code's .roomodes as .hearth/modes/SLUG.md files (issue 27, item 2); an existing file is kept.
  // Refused in Restricted Mode (`readOnly`): it writes to the workspace.
  "modes/import": {
    params: z.object({ readOnly: z.boolean().optional() }).optional(),
    result: ModeImport,
  },
  // issue 27, item 3: the workspace's prompt files (.hearth/prompts/*.md, .github/prompts/*.prompt.md,
  // .claude/commands/*.md), each with the questions it asks and, when it cannot run, why. `readOnly`
  // as the client's folder is (Restricted Mode reads none of them).
  "prompts/list": {
    params: z.object({ readOnly: z.boolean().optional() }).optional(),
    result: PromptList,
  },
  // One prompt file as the message to send: read again now, `args` (the text after `/name`), the
  // answers to its `${input:…}` questions and the client's active editor filled in. Refused, saying
  // what is missing, when it is malformed or an input, the selection or the file it uses is not given.
  "prompts/expand": {
    params: z.object({
      name: z.string().min(1).max(100),
      args: z.string().max(1_000_000).optional(),
      inputs: z.record(z.string(), z.string().max(1_000_000)).optional(),
      editor: PromptEditor.optional(),
      readOnly: z.boolean().optional(),
    }),
    result: PromptExpansion,
  },
  "instructions/set": {
    params: z.object({ path: z.string().min(1).max(4096), enabled: z.boolean(), readOnly: z.boolean().optional() }),
    result: InstructionsInForce,
  },
  "model/status": {
    params: Empty,
    result: z.object({
      state: ModelState,
      spec: z.string().nullable(),
      error: z.string().nullable(),
      capabilities: z.record(z.string(), z.enum(["proven", "disproven", "unknown"])).optional(),
      /** Whether the loaded model can fill in the middle (completions as you type, issue 31). */
      infill: z.boolean().optional(),
      /** The draft model beside a local chat model (issue 30, HEARTH_DRAFT_MODEL): loaded, or refused with what to do. */
      draft: z.object({ path: z.string(), state: z.enum(["loaded", "refused"]), error: z.string().nullable() }).optional(),
    }),
  },
  "model/load": {
    params: z.object({ spec: z.string().min(1).max(4096) }),
    result: z.object({ state: ModelState, spec: z.string() }),
  },
  // issue 10: the first run's choice. GGUF files already on this machine (with size and
  // quantisation) and a short list of code models to download, one the default for this machine.
  "model/discover": {
    params: Empty,
    result: z.object({
      found: z.array(
        z.object({
          path: z.string(),
          name: z.string(),
          source: z.string(),
          sizeBytes: z.number().nonnegative(),
          quantization: z.string().nullable(),
        }),
      ),
      recommended: z.array(
        z.object({
          spec: z.string(),
          name: z.string(),
          sizeBytes: z.number().nonnegative(),
          quantization: z.string(),
          isDefault: z.boolean(),
          downloaded: z.boolean(),
        }),
      ),
      modelsDir: z.string(),
      totalMemoryBytes: z.number().nonnegative(),
    }),
  },
  // Stops a download or load in progress; a stopped download keeps its bytes and resumes next time.
  "model/cancelLoad": {
    params: Empty,
    result: z.object({ cancelled: z.boolean(), spec: z.string().nullable() }),
  },
  // A GPU build of llama.cpp that does not ship in the .vsix, offered when this machine could use it
  // (issue 10: CUDA is 538 MB); installed only when the person confirms, then used after a restart.
  "model/gpuOffer": {
    params: Empty,
    result: z.object({
      offer: z
        .object({ gpu: z.literal("cuda"), packages: z.array(z.string()), approxBytes: z.number().int().positive(), reason: z.string() })
        .nullable(),
    }),
  },
  "model/installGpuBuild": {
    params: z.object({ gpu: z.literal("cuda") }),
    result: z.object({ installed: z.array(z.string()), restartNeeded: z.boolean() }),
  },
  // issue 31: fill-in-the-middle as you type, on the loaded local model; never journaled. A client cancels
  // a completion the next keystroke makes stale with $/cancelRequest (the native work stops too).
  "completion/infill": {
    params: z.object({
      prefix: z.string().max(COMPLETION_CONTEXT_CHARS),
      suffix: z.string().max(COMPLETION_CONTEXT_CHARS),
      maxTokens: z.number().int().min(1).max(512).default(64),
      /** Chunks of recently edited and opened files, oldest first: placed before the prefix in this order, so the cache keeps them. */
      chunks: z
        .array(z.object({ filename: z.string().max(1024), text: z.string().max(COMPLETION_CHUNK_CHARS) }))
        .max(COMPLETION_CHUNKS)
        .optional(),
      /** The person's completion model (hearth.completions.model), loaded beside the chat model; unset: the loaded model. */
      model: z.string().min(1).max(4096).optional(),
    }),
    result: z.object({
      text: z.string(),
      reusedTokens: z.number().int().nonnegative(),
      evaluatedTokens: z.number().int().nonnegative(),
      generatedTokens: z.number().int().nonnegative(),
    }),
  },
  "kernel/shutdown": {
    params: Empty,
    result: z.object({ ok: z.literal(true) }),
  },
} as const;

/** Kernel → client notifications. */
export const notifications = {
  "turn/event": z.object({ sessionId: Id, turnId: Id, seq: z.number().int().nonnegative(), event: TurnEvent }),
  // Downloads also carry bytes, total, speed and time left (issue 10, item 4).
  "model/progress": z.object({
    spec: z.string(),
    fraction: z.number().min(0).max(1),
    phase: z.string(),
    receivedBytes: z.number().nonnegative().optional(),
    totalBytes: z.number().nonnegative().optional(),
    bytesPerSecond: z.number().nonnegative().optional(),
    secondsLeft: z.number().nonnegative().nullable().optional(),
  }),
  "kernel/log": z.object({ level: z.enum(["info", "warn", "error"]), message: z.string() }),
  // To every connected client when the kernel condensed a session between turns (issue 30, item 3): the
  // chat showing it marks the condensed range without waiting for a reload.
  "session/condensed": z.object({ sessionId: Id, condensation: Condensation }),
  // To every connected client as each approval decision is journaled, a rule's included (issue 27): the
  // call's card says who decided while the turn runs, not only once the transcript is read again.
  "approval/decided": z.object({
    sessionId: Id,
    turnId: Id,
    callId: Id,
    decision: CallDecision,
  }),
  // To every connected client whenever a task changes state (issue 12: the Tasks view, `hearth tasks`).
  "task/updated": z.object({ task: TaskSummary }),
} as const;

/** Kernel → client requests. */
export const serverRequests = {
  "approval/request": {
    params: z.object({
      sessionId: Id,
      turnId: Id,
      /** Set when the call is a background task's: show it without taking the person's focus (issue 12). */
      taskId: Id.optional(),
      call: ToolCallRecord,
      inputHash: z.string(),
      effectClass: EffectClass,
      preview: ApprovalPreview,
      /**
       * issue 27: the narrowest workspace rule that would allow exactly this call from now on (a shell
       * command's pattern, such as `npm test`); offered only in a trusted folder, for one simple command.
       */
      alwaysAllow: z.string().max(4096).optional(),
    }),
    // harness #8: approval and denial reasons are non-empty, bounded, single-line text.
    // `surface`: where the person (or policy) decided, journaled with the decision (issue 24).
    // `alwaysAllow`: with approve, the person asked for the offered rule to be written to .hearth/rules.json.
    result: z.object({
      decision: z.enum(["approve", "deny"]),
      reason: z.string().min(1).max(MAX_REASON_CHARS),
      surface: DecisionSurface.optional(),
      alwaysAllow: z.boolean().optional(),
    }),
  },
  // issue 29 item 4: the problems an accepted write_file/edit_file left in its file. Before the write the
  // client notes the file's problems as they are; after it, it waits briefly for the language servers
  // and reports those that were not there before (`report`, appended to the tool's result), or null when
  // the person turned it off. A client with no editor (the CLI) does not answer: none are collected.
  "diagnostics/baseline": {
    params: WriteDiagnosticsParams,
    result: z.object({ noted: z.boolean() }),
  },
  "diagnostics/afterWrite": {
    params: WriteDiagnosticsParams,
    result: z.object({ report: z.string().max(MAX_DIAGNOSTICS_REPORT_CHARS).nullable() }),
  },
} as const;

export type RequestMethod = keyof typeof requests;
export type RequestParams<M extends RequestMethod> = z.input<(typeof requests)[M]["params"]>;
export type RequestResult<M extends RequestMethod> = z.infer<(typeof requests)[M]["result"]>;
export type NotificationMethod = keyof typeof notifications;
export type NotificationParams<M extends NotificationMethod> = z.infer<(typeof notifications)[M]>;
export type ServerRequestMethod = keyof typeof serverRequests;
export type ServerRequestParams<M extends ServerRequestMethod> = z.infer<(typeof serverRequests)[M]["params"]>;
export type ServerRequestResult<M extends ServerRequestMethod> = z.infer<(typeof serverRequests)[M]["result"]>;

export const REQUEST_METHODS = Object.keys(requests) as RequestMethod[];

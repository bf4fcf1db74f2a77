// Rewind of the chat's session, and fork at one of its messages, editor side (issue 29 items 1 and 2): the view's previews, a person's chosen
// rewind and its undo go to the kernel (session/rewindPreview, session/rewind, session/undoRewind);
// after either the transcript is shown again, so the view folds what the model no longer sees. A
// rewind of the files writes them, so in Restricted Mode it is refused before the kernel is asked, as
// undo is; the conversation alone writes no file and is allowed. Plain Node (no `vscode` import).
import type { RewindFileOutcome, RewindRecord, RewindScope } from "../../shared/protocol/rewind.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { errorMessage } from "../../shared/errors.js";
import type { ForkedTask } from "../tasks/forkedTask.js";

export interface SessionRewindDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted">;
  /** The chat's current session (none before its first message). */
  sessionId(): string | undefined;
  log: KernelLog;
  /** True while the folder is untrusted: rewinding files writes them, so it waits for trust like any write. */
  restricted(): boolean;
  /** Shows the session's transcript again (the view folds the rewound messages). */
  reload(): Promise<void>;
  /** Makes a session the chat's (as History does); refused, with a notice, while a turn runs. */
  open(sessionId: string): Promise<void>;
  /** Starts a background task forked from the chat (hearth.startTask, which lets the person change its instruction). */
  startTask(task: ForkedTask): Promise<unknown>;
}

/** Messages read back to number the user messages the view drew live. */
const USER_SEQS_PAGE = 200;

const RESTRICTED =
  "this folder is in Restricted Mode, where Hearth writes no files; rewind the conversation only, or trust the folder " +
  "(Manage Workspace Trust) and try again";

export class SessionRewind {
  private view: ((message: ToWebview) => void) | undefined;
  private rewinds: RewindRecord[] = [];

  constructor(private readonly deps: SessionRewindDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  /** The session's rewinds, sent to the view. */
  async refresh(): Promise<void> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return;
    try {
      const client = await this.deps.kernel.ensureStarted();
      // The latest page is enough: the messages drawn live (without a seq) are the latest ones.
      const page = await client.request("session/history", { sessionId, limit: USER_SEQS_PAGE });
      this.rewinds = page.rewinds ?? [];
      const userSeqs = page.messages.flatMap((m) => (m.role === "user" ? [m.seq] : []));
      this.view?.({ type: "rewind/list", sessionId, rewinds: this.rewinds, userSeqs });
    } catch (e) {
      this.deps.log.warn(`rewind: could not list the rewinds of session ${sessionId}: ${errorMessage(e)}`);
    }
  }

  async preview(toSeq: number): Promise<void> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return;
    try {
      const client = await this.deps.kernel.ensureStarted();
      this.view?.({ type: "rewind/preview", toSeq, preview: await client.request("session/rewindPreview", { sessionId, toSeq }) });
    } catch (e) {
      this.view?.({ type: "rewind/preview", toSeq, error: `Nothing can be rewound here: ${errorMessage(e)}` });
    }
  }

  /** The person's confirmed choice; every file's outcome is logged and shown. */
  async rewind(toSeq: number, scope: RewindScope): Promise<void> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return;
    if (scope !== "conversation" && this.deps.restricted()) return this.refused({ toSeq }, `Nothing was rewound: ${RESTRICTED}.`);
    await this.act({ toSeq }, "Nothing was rewound", async (client) => {
      const done = await client.request("session/rewind", { sessionId, toSeq, scope });
      return done.files;
    });
  }

  async undo(rewindId: string): Promise<void> {
    const touchedFiles = this.rewinds
      .find((r) => r.rewindId === rewindId)
      ?.files.some((f) => f.outcome === "restored" || f.outcome === "removed");
    if (touchedFiles !== false && this.deps.restricted()) return this.refused({ rewindId }, `The rewind was not undone: ${RESTRICTED}.`);
    await this.act(
      { rewindId },
      "The rewind was not undone",
      async (client) => (await client.request("session/undoRewind", { rewindId })).files,
    );
  }

  /**
   * Fork at a user message (issue 29 item 2): the kernel makes the new session, the chat opens it, and
   * the forked message goes back into the message box, as after a rewind: a fork is made to say that
   * message differently, so it is the person's to edit and send (Claude Code's rewind and VS Code's
   * edit of a request work the same way), never sent unasked.
   */
  async fork(atSeq: number): Promise<void> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return;
    try {
      const client = await this.deps.kernel.ensureStarted();
      const forked = await client.request("session/fork", { sessionId, atSeq });
      const forkId = forked.session.sessionId;
      this.deps.log.info(`fork: session ${sessionId} at #${atSeq} into session ${forkId} (${forked.copied} messages)`);
      await this.deps.open(forkId);
      if (this.deps.sessionId() !== forkId) {
        const error = `The fork "${forked.session.title}" was made but not opened, as a turn is running; open it from History when the turn ends.`;
        this.deps.log.warn(`fork: ${error}`);
        this.view?.({ type: "fork/result", atSeq, error });
        return;
      }
      this.view?.({ type: "fork/result", atSeq, draft: forked.draft });
    } catch (e) {
      const error = `No fork was made: ${errorMessage(e)}`;
      this.deps.log.warn(`fork: ${error}`);
      this.view?.({ type: "fork/result", atSeq, error });
    }
  }

  /**
   * Fork into a background task (issue 29 item 2): the task starts with the chat's history before the
   * message and does what the message says (the person may change it first); the chat stays open as it is.
   */
  async forkTask(atSeq: number, text: string): Promise<void> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return;
    await this.deps.startTask({ instruction: text, forkOf: { sessionId, atSeq } });
  }

  private async act(
    about: { toSeq?: number; rewindId?: string },
    failed: string,
    request: (client: Awaited<ReturnType<KernelSupervisor["ensureStarted"]>>) => Promise<RewindFileOutcome[]>,
  ): Promise<void> {
    try {
      const files = await request(await this.deps.kernel.ensureStarted());
      for (const f of files) this.deps.log.info(`rewind: ${f.path} ${f.outcome}: ${f.message}`);
      this.view?.({ type: "rewind/result", ...about, files });
    } catch (e) {
      return this.refused(about, `${failed}: ${errorMessage(e)}`);
    }
    await this.deps.reload();
    await this.refresh();
  }

  private refused(about: { toSeq?: number; rewindId?: string }, error: string): void {
    this.deps.log.warn(`rewind: ${error}`);
    this.view?.({ type: "rewind/result", ...about, files: [], error });
  }
}

// Undo of a turn's edits, editor side (issue 14 item 5): asks the kernel which turns of the chat's
// session wrote files (turn/edits) and undoes one on a person's confirmed request (turn/undoEdits);
// the chat view and the command both go through here. Plain Node (no `vscode` import).
import type { TurnEdits, UndoFileOutcome } from "../../shared/protocol/undo.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import type { KernelLog, KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { errorMessage } from "../../shared/errors.js";

export interface TurnUndoDeps {
  kernel: Pick<KernelSupervisor, "ensureStarted">;
  /** The chat's current session (none before its first message). */
  sessionId(): string | undefined;
  log: KernelLog;
  /** True while the folder is untrusted: undo writes files, so it waits for trust like any write. */
  restricted(): boolean;
}

export type UndoResult = { files: UndoFileOutcome[]; error?: string };

export class TurnUndo {
  private view: ((message: ToWebview) => void) | undefined;

  constructor(private readonly deps: TurnUndoDeps) {}

  attach(post: ((message: ToWebview) => void) | undefined): void {
    this.view = post;
  }

  /** The session's turns that wrote files, oldest first; also sent to the view. */
  async refresh(): Promise<TurnEdits[]> {
    const sessionId = this.deps.sessionId();
    if (!sessionId) return [];
    try {
      const client = await this.deps.kernel.ensureStarted();
      const { turns } = await client.request("turn/edits", { sessionId });
      this.view?.({ type: "edits/turns", sessionId, turns });
      return turns;
    } catch (e) {
      this.deps.log.warn(`undo: could not list the edits of session ${sessionId}: ${errorMessage(e)}`);
      return [];
    }
  }

  /** The latest turn with a file not undone yet: what "Undo Last Turn's Edits" acts on. */
  async lastUndoable(): Promise<TurnEdits | undefined> {
    return (await this.refresh()).filter((t) => t.files.some((f) => !f.undone)).at(-1);
  }

  /** Undoes the run's edits (the person confirmed them); every file's outcome is logged and shown. */
  async undo(turnId: string): Promise<UndoResult> {
    let result: UndoResult;
    if (this.deps.restricted()) {
      result = {
        files: [],
        error:
          "The edits were not undone: this folder is in Restricted Mode, where Hearth writes no files; trust " +
          "the folder (Manage Workspace Trust), then undo again.",
      };
      this.deps.log.warn(`undo of run ${turnId}: ${result.error}`);
      this.view?.({ type: "edits/result", turnId, ...result });
      return result;
    }
    try {
      const client = await this.deps.kernel.ensureStarted();
      result = { files: (await client.request("turn/undoEdits", { turnId })).files };
      for (const f of result.files) this.deps.log.info(`undo of run ${turnId}: ${f.path} ${f.outcome}: ${f.message}`);
    } catch (e) {
      result = { files: [], error: `The edits were not undone: ${errorMessage(e)}` };
      this.deps.log.warn(`undo of run ${turnId}: ${result.error}`);
    }
    this.view?.({ type: "edits/result", turnId, ...result });
    await this.refresh();
    return result;
  }
}

/** The command's question: which files are put back and which removed. */
export function confirmText(turn: TurnEdits): string {
  const open = turn.files.filter((f) => !f.undone);
  const restore = open.filter((f) => f.change === "modified").map((f) => f.path);
  const remove = open.filter((f) => f.change === "created").map((f) => f.path);
  const parts = [restore.length ? `restores ${restore.join(", ")}` : "", remove.length ? `removes ${remove.join(", ")}` : ""].filter(
    Boolean,
  );
  return `Undo the last turn's edits? It ${parts.join(" and ")} as they were before the turn; files changed since are left as they are.`;
}

/** One line per outcome, for the command's notification. */
export function resultText(result: UndoResult): string {
  if (result.error) return result.error;
  const done = result.files.filter((f) => f.outcome !== "refused");
  const refused = result.files.filter((f) => f.outcome === "refused");
  const head = done.length ? `Undone: ${done.map((f) => `${f.outcome} ${f.path}`).join(", ")}.` : "Nothing was undone.";
  return refused.length ? `${head} ${refused.map((f) => f.message).join(" ")}` : head;
}

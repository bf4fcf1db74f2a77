// Chips of the editor's context (issue 29 item 3): the Problems list of the workspace or of the
// active file, the active terminal's last command, the working tree's changes from the built-in Git
// extension. The text is collected here, bounded (editorContextText.ts), and sent as the chip's
// content; a chip that cannot be made is refused with what, why and what to do.
import path from "node:path";
import * as vscode from "vscode";
import { type Attachment, WORKSPACE_PROBLEMS } from "../../shared/protocol/attachments.js";
import { inFolder } from "../chat/applyTarget.js";
import { changesText, type Problem, problemsText, type Severity, terminalText } from "./editorContextText.js";
import { lastOutputFromBuffer } from "./terminalBuffer.js";
import type { TerminalHistory } from "./terminalHistory.js";

/** The chip, or the words that say why there is none. */
export type Collected = { attachment: Attachment } | { refused: string };

const SEVERITIES: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "info",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

function problem(uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return {
    file: vscode.workspace.asRelativePath(uri, false),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity],
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

/** The problems VS Code holds for one file now. */
export function problemsOf(uri: vscode.Uri): Problem[] {
  return vscode.languages.getDiagnostics(uri).map((d) => problem(uri, d));
}

/** The diagnostics VS Code holds now: every file's, or the active editor's file's. */
export function collectProblems(folder: string, scope: "workspace" | "file"): Collected {
  if (scope === "workspace") {
    const all = vscode.languages.getDiagnostics().flatMap(([uri, ds]) => ds.map((d) => problem(uri, d)));
    const content = problemsText("the workspace", all);
    return { attachment: { kind: "problems", path: WORKSPACE_PROBLEMS, content } };
  }
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== "file")
    return {
      refused: "No file's problems to attach: no file is open in an editor. Open the file, then attach @problems of the active file again.",
    };
  const target = inFolder(
    folder,
    uri.fsPath,
    "the active editor's file",
    "Attaching its problems",
    "Open a file of the folder, then attach again.",
  );
  if (target.kind !== "file") return { refused: target.kind === "refused" ? target.message : "No file to attach the problems of." };
  const content = problemsText(target.path, problemsOf(uri));
  return { attachment: { kind: "problems", path: target.path, content } };
}

/** The active terminal's last command and its output, as shell integration saw them (the buffer's output when the stream lost it). */
export async function collectTerminal(history: TerminalHistory): Promise<Collected> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal)
    return {
      refused:
        "No terminal to attach: there is no active terminal. Open one (Terminal › New Terminal), run the command, then attach @terminal again.",
    };
  if (!history.supported)
    return {
      refused:
        "The terminal was not attached: this VS Code has no shell integration API (it came in VS Code 1.93). Update VS Code, then attach @terminal again.",
    };
  const last = history.lastCommand(terminal);
  if (last) {
    const output = last.output === "" ? ((await lastOutputFromBuffer()) ?? "") : last.output;
    return { attachment: { kind: "terminal", path: terminal.name, content: terminalText({ ...last, output }) } };
  }
  if ((terminal as { shellIntegration?: unknown }).shellIntegration === undefined)
    return {
      refused:
        `The terminal "${terminal.name}" was not attached: shell integration is not active in it (a terminal that just opened takes a moment to start it), so VS Code cannot tell its commands and their output apart. ` +
        "Turn on terminal.integrated.shellIntegration.enabled, open a new terminal with a supported shell (bash, zsh, fish, pwsh), run the command, then attach @terminal again.",
    };
  return {
    refused: `The terminal "${terminal.name}" was not attached: no command has ended in it since this window opened. Run the command in it, then attach @terminal again.`,
  };
}

// The few members of the built-in Git extension's API (extensions/git/src/api/git.d.ts) used here.
interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly workingTreeChanges: GitChange[]; readonly untrackedChanges?: GitChange[] };
  diff(cached?: boolean): Promise<string>;
}
interface GitApi {
  readonly state: "uninitialized" | "initialized";
  readonly onDidChangeState: vscode.Event<"uninitialized" | "initialized">;
  getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}
/** git.d.ts Status.UNTRACKED. */
const UNTRACKED = 7;
/** How long the Git extension may take to find the repositories of a window that just opened. */
const GIT_READY_MS = 5_000;

/** The working tree's diff (staged and not) and untracked files of the folder's repository. */
export async function collectChanges(folder: vscode.Uri): Promise<Collected> {
  const extension = vscode.extensions.getExtension<GitExtension>("vscode.git");
  if (!extension)
    return {
      refused:
        "The changes were not attached: the built-in Git extension is disabled. Enable it (Extensions › @builtin git), then attach @changes again.",
    };
  let git: GitExtension;
  try {
    git = extension.isActive ? extension.exports : await extension.activate();
  } catch (e) {
    return {
      refused: `The changes were not attached: the Git extension did not start (${String(e)}). Check the Git output channel, then attach @changes again.`,
    };
  }
  if (!git.enabled)
    return {
      refused:
        "The changes were not attached: Git is turned off in this window (git.enabled is false). Turn it on, then attach @changes again.",
    };
  const api = git.getAPI(1);
  if (api.state !== "initialized")
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, GIT_READY_MS);
      const subscription = api.onDidChangeState((s) => s === "initialized" && done());
    });
  const repo = api.getRepository(folder);
  if (!repo)
    return {
      refused: `The changes were not attached: ${folder.fsPath} is not in a git repository that the Git extension knows. Run git init there (or open the repository's folder), then attach @changes again.`,
    };
  const [staged, unstaged] = await Promise.all([repo.diff(true), repo.diff(false)]);
  const untracked = [...(repo.state.untrackedChanges ?? []), ...repo.state.workingTreeChanges.filter((c) => c.status === UNTRACKED)].map(
    (c) => path.relative(repo.rootUri.fsPath, c.uri.fsPath).split(path.sep).join("/"),
  );
  const relative = path.relative(folder.fsPath, repo.rootUri.fsPath);
  const where = relative === "" ? "." : relative.startsWith("..") ? repo.rootUri.fsPath : relative.split(path.sep).join("/");
  if (!staged.trim() && !unstaged.trim() && untracked.length === 0)
    return {
      refused: `No changes to attach: the working tree of ${where === "." ? folder.fsPath : where} matches HEAD. Change a file, then attach @changes again.`,
    };
  const content = changesText(where, { staged, unstaged, untracked: [...new Set(untracked)].sort() });
  return { attachment: { kind: "changes", path: where, content } };
}

// Errors after an edit (issue 29 item 4), the editor's part: the kernel asks before it installs an
// accepted write_file/edit_file (note the file's problems) and after (report the new ones). After the
// write the file is opened as a document, if it is not open yet, so its language server checks it;
// the report waits for the server's first word on the file and then for it to fall quiet, bounded.
// A report missed while the document opened only changes the wording: the problems are read after the wait.
import path from "node:path";
import * as vscode from "vscode";
import type { ServerRequestParams, ServerRequestResult } from "../../shared/protocol/index.js";
import type { Problem } from "./editorContextText.js";
import { problemsOf } from "./editorContext.js";
import { addedProblems, problemsAfterWriteText, staleDocumentText } from "./problemsAfterWrite.js";

export const PROBLEMS_AFTER_WRITE_SETTING = "hearth.edits.problemsAfterWrite";
/** How long the language servers may stay silent on the file after the write before none is taken as their word. */
const FIRST_WORD_MS = 2_000;
/**
 * The same, for a language whose server has reported in this window: it will speak, and a busy
 * machine's TypeScript server can take longer than 2 s to recheck a file. A language that never
 * reports (Markdown, say) keeps the short wait on every write.
 */
const SPEAKING_FIRST_WORD_MS = 5_000;
/** The longest wait for the language servers after a write (the kernel waits a little longer for the answer). */
const WAIT_MS = 8_000;
/** How long an editor showing the file may take to reload it from disk after the write. */
const RELOAD_WAIT_MS = 2_000;
/** Quiet after the server's last change to the file's problems: its syntactic and semantic passes both landed. */
const QUIET_MS = 600;
/** Baselines kept at most: one per write in flight, so a kernel that never asks after cannot grow this. */
const MAX_BASELINES = 64;

/** Both requests name the same write (shared/protocol/methods.ts). */
type Params = ServerRequestParams<"diagnostics/baseline">;

export class WriteProblems implements vscode.Disposable {
  private readonly baselines = new Map<string, Problem[]>();
  /** The languages whose servers have reported problems of an open document in this window. */
  private readonly speaking = new Set<string>();
  private readonly listener: vscode.Disposable;

  constructor(private readonly workspace: string) {
    this.listener = vscode.languages.onDidChangeDiagnostics((e) => {
      for (const uri of e.uris) {
        const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (document) this.speaking.add(document.languageId);
      }
    });
  }

  dispose(): void {
    this.listener.dispose();
  }

  baseline(params: Params): ServerRequestResult<"diagnostics/baseline"> {
    if (!enabled()) return { noted: false };
    if (this.baselines.size >= MAX_BASELINES) this.baselines.delete(this.baselines.keys().next().value!);
    this.baselines.set(params.callId, problemsOf(this.uriOf(params.path)));
    return { noted: true };
  }

  async afterWrite(params: Params, signal: AbortSignal): Promise<ServerRequestResult<"diagnostics/afterWrite">> {
    const before = this.baselines.get(params.callId) ?? [];
    this.baselines.delete(params.callId);
    if (!enabled()) return { report: null };
    const uri = this.uriOf(params.path);
    const { document, stale } = await currentDocument(uri);
    // Plain text has no language server: nothing would ever be reported, so nothing is waited for or said.
    if (!document || document.languageId === "plaintext") return { report: null };
    // The servers check what the document holds: one that still holds the old text says nothing of the write.
    if (stale) return { report: staleDocumentText(vscode.workspace.asRelativePath(uri, false)) };
    const firstWordMs = this.speaking.has(document.languageId) ? SPEAKING_FIRST_WORD_MS : FIRST_WORD_MS;
    const settled = await serverSettles(uri, firstWordMs, signal);
    const added = addedProblems(before, problemsOf(uri));
    return { report: problemsAfterWriteText(vscode.workspace.asRelativePath(uri, false), added, settled, firstWordMs) };
  }

  private uriOf(file: string): vscode.Uri {
    return vscode.Uri.file(path.resolve(this.workspace, file));
  }
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(PROBLEMS_AFTER_WRITE_SETTING, true);
}

/**
 * The file as a document holding what the write left. An editor that shows it reloads it only when
 * the file watcher tells it the disk changed; the servers check what the document holds, so that is
 * awaited (bounded) before their word is.
 */
async function currentDocument(uri: vscode.Uri): Promise<{ document?: vscode.TextDocument; stale: boolean }> {
  const opened = await vscode.workspace.openTextDocument(uri).then(
    (d) => d,
    () => undefined, // gone or unreadable: nothing will report on it
  );
  if (!opened || opened.isDirty) return { document: opened, stale: false };
  const onDisk = await vscode.workspace.fs.readFile(uri).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => null,
  );
  if (onDisk === null || opened.getText() === onDisk) return { document: opened, stale: false };
  await new Promise<void>((resolve) => {
    const listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.toString() === uri.toString() && e.document.getText() === onDisk) finish();
    });
    const timer = setTimeout(finish, RELOAD_WAIT_MS);
    function finish(): void {
      listener.dispose();
      clearTimeout(timer);
      resolve();
    }
  });
  return { document: opened, stale: !opened.isDirty && opened.getText() !== onDisk };
}

/** True once the file's problems changed and then stayed as they are for QUIET_MS; false if nothing changed within `firstWordMs`. */
async function serverSettles(uri: vscode.Uri, firstWordMs: number, signal: AbortSignal): Promise<boolean> {
  let changed = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let done: (settled: boolean) => void = () => undefined;
  const outcome = new Promise<boolean>((resolve) => (done = resolve));
  const listener = vscode.languages.onDidChangeDiagnostics((e) => {
    if (!e.uris.some((u) => u.toString() === uri.toString())) return;
    changed = true;
    clearTimeout(quiet);
    quiet = setTimeout(() => done(true), QUIET_MS);
  });
  const silent = setTimeout(() => changed || done(false), firstWordMs);
  const cap = setTimeout(() => done(changed), WAIT_MS);
  const abort = () => done(changed);
  signal.addEventListener("abort", abort);
  try {
    return await outcome;
  } finally {
    listener.dispose();
    clearTimeout(quiet);
    clearTimeout(silent);
    clearTimeout(cap);
    signal.removeEventListener("abort", abort);
  }
}

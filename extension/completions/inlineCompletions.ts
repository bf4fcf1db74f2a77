// Completions as you type (issue 31): VS Code's inline completion provider, served by the kernel's
// `completion/infill` on the model it already has loaded. Typing on cancels the request in flight at once
// (its $/cancelRequest stops the native work in the kernel); requests wait a short pause first, so a burst
// of keystrokes makes one. A suggestion known already (typed into, or computed ahead of an accept:
// suggestions.ts) is shown without the pause or a request. A completion never starts the kernel or loads a model: it is served only
// when a chat has already done so. The status bar item says whether completions run, and toggles them.
import * as vscode from "vscode";
import { ErrorCode, errorMessage } from "../../shared/errors.js";
import { KernelRequestError } from "../../shared/node/kernelClient.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { type CompletionSettings, completionsWanted, shownSuggestion } from "./completionRequest.js";
import { ChunkRing } from "./chunkRing.js";
import { Suggestions } from "./suggestions.js";

const DEBOUNCE_MS = 120;
/** After a refusal (a model without FIM tokens, an openai: model), completions rest this long before asking again. */
const REFUSED_PAUSE_MS = 30_000;
const TOGGLE_COMMAND = "hearth.completions.toggle";

function settings(): CompletionSettings {
  const c = vscode.workspace.getConfiguration("hearth.completions");
  return {
    enabled: c.get<boolean>("enabled", true),
    disabledLanguages: c.get<string[]>("disabledLanguages", []),
    maxLines: c.get<number>("maxLines", 8),
    model: c.get<string>("model", "").trim(),
  };
}

function delay(ms: number, token: vscode.CancellationToken): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(true);
    }, ms);
    const sub = token.onCancellationRequested(() => {
      clearTimeout(timer);
      sub.dispose();
      resolve(false);
    });
  });
}

function abortSignalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  if (token.isCancellationRequested) abort.abort();
  return { signal: abort.signal, dispose: () => sub.dispose() };
}

export function registerInlineCompletions(kernel: KernelSupervisor, log: vscode.LogOutputChannel): vscode.Disposable {
  const status = vscode.window.createStatusBarItem("hearth.completions", vscode.StatusBarAlignment.Right, 99);
  status.name = "Hearth Completions";
  status.command = TOGGLE_COMMAND;
  let refused: { until: number; why: string } | null = null;
  const render = () => {
    const s = settings();
    const resting = refused && refused.until > Date.now() ? refused.why : null;
    status.text = !s.enabled
      ? "$(circle-slash) Hearth completions"
      : resting
        ? "$(warning) Hearth completions"
        : "$(sparkle) Hearth completions";
    status.tooltip = !s.enabled
      ? "Completions as you type are off. Click to turn them on."
      : resting
        ? `Completions as you type are paused: ${resting}\nClick to turn them off.`
        : `Completions as you type from ${s.model ? `the completion model ${s.model}` : "the model Hearth has loaded"}. Click to turn them off.`;
    status.show();
  };
  render();

  // Chunks of the files recently edited, saved and opened, sent with each completion (chunkRing.ts).
  const ring = new ChunkRing();
  const lastEdit = new Map<string, number>();
  const fileName = (doc: vscode.TextDocument) => vscode.workspace.asRelativePath(doc.uri);
  const pickFrom = (doc: vscode.TextDocument, line: number) => {
    if (doc.uri.scheme === "file" && completionsWanted(settings(), doc.languageId)) ring.pick(fileName(doc), doc.getText(), line);
  };
  const pickAround = (editor: vscode.TextEditor | undefined) => {
    if (editor) pickFrom(editor.document, lastEdit.get(editor.document.uri.toString()) ?? editor.selection.active.line);
  };
  let activeEditor = vscode.window.activeTextEditor;
  pickAround(activeEditor);
  /** The file the completion being asked for is in: its own chunks are not sent (its window is). */
  let completing = "";

  const suggestions = new Suggestions(async (window, signal) => {
    const client = await kernel.ensureStarted();
    const { maxLines, model } = settings();
    const chunks = ring.for(completing);
    const r = await client.request(
      "completion/infill",
      { ...window, maxTokens: 16 * maxLines, ...(chunks.length ? { chunks } : {}), ...(model ? { model } : {}) },
      signal,
    );
    return r.text;
  });

  const provider: vscode.InlineCompletionItemProvider = {
    async provideInlineCompletionItems(document, position, _context, token) {
      const s = settings();
      if (!completionsWanted(s, document.languageId) || kernel.state.kind !== "ready") return [];
      if (refused && refused.until > Date.now()) return [];
      completing = fileName(document);
      const text = document.getText();
      const offset = document.offsetAt(position);
      const offer = (middle: string) => {
        const shown = shownSuggestion(middle, s.maxLines);
        if (!shown) return [];
        suggestions.computeAhead(text, offset, shown);
        return [new vscode.InlineCompletionItem(shown, new vscode.Range(position, position))];
      };
      // Known already (typed into a suggestion, back at a window answered before): shown without a pause.
      const known = suggestions.known(text, offset);
      if (known.middle !== null) return offer(known.middle);
      if (!(await delay(DEBOUNCE_MS, token))) return [];
      const cancel = abortSignalOf(token);
      try {
        const { middle, from } = await suggestions.suggest(known.window, cancel.signal);
        log.trace(`completion from ${from}`);
        return offer(middle);
      } catch (e) {
        if (token.isCancellationRequested) return [];
        if (e instanceof KernelRequestError && (e.code === ErrorCode.Refused || e.code === ErrorCode.ModelUnavailable)) {
          refused = { until: Date.now() + REFUSED_PAUSE_MS, why: e.message };
          render();
        } else log.warn(`completion failed: ${errorMessage(e)}`);
        return [];
      } finally {
        cancel.dispose();
      }
    },
  };

  return vscode.Disposable.from(
    status,
    // A kernel that stopped or restarted may come back with another model: its answers are not these.
    kernel.onState((state) => {
      if (state.kind !== "ready") suggestions.forget();
    }),
    vscode.languages.registerInlineCompletionItemProvider({ pattern: "**" }, provider),
    // The ring changes on these events only, never per keystroke: an edit just remembers its line, and
    // the chunk around it is taken when the file is saved or left.
    vscode.workspace.onDidChangeTextDocument((e) => {
      const change = e.contentChanges[0];
      if (change && e.document.uri.scheme === "file") lastEdit.set(e.document.uri.toString(), change.range.start.line);
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      const editor = vscode.window.visibleTextEditors.find((ed) => ed.document === doc);
      pickFrom(doc, lastEdit.get(doc.uri.toString()) ?? editor?.selection.active.line ?? 0);
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      pickAround(activeEditor);
      pickAround(editor);
      activeEditor = editor;
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => lastEdit.delete(doc.uri.toString())),
    vscode.commands.registerCommand(TOGGLE_COMMAND, async () => {
      refused = null;
      suggestions.forget();
      await vscode.workspace
        .getConfiguration("hearth.completions")
        .update("enabled", !settings().enabled, vscode.ConfigurationTarget.Global);
      render();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("hearth.completions")) {
        refused = null;
        suggestions.forget();
        render();
      }
    }),
  );
}

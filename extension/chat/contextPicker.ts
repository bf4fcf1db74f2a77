// The chips' sources (issue 15 item 5): the active editor's file, its selected lines, or a file picked
// from the workspace. Only places are named here (never file contents): the kernel reads them through
// its anchored read_file when the message is sent. A place outside the folder is refused here first.
// The @ picker offers the running MCP servers' resources after the files (issue 28, item 5), as
// "server: name"; the kernel reads the one picked (resources/read) when the message is sent.
// Issue 29 item 3: the picker opens with the editor's context (the Problems list, the terminal's last
// command, the working tree's changes: collected here, as text) and offers folders before the files
// (a folder is listed by the kernel, like a file is read by it), and @url: a web page the turn fetches
// first, with web_fetch and its approval.
import path from "node:path";
import * as vscode from "vscode";
import type { Attachment } from "../../shared/protocol/attachments.js";
import type { McpResourceView } from "../../shared/protocol/mcp.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import { type Collected, collectChanges, collectProblems, collectTerminal } from "../context/editorContext.js";
import type { TerminalHistory } from "../context/terminalHistory.js";
import { inFolder } from "./applyTarget.js";

type Post = (message: ToWebview) => void;

/** Files offered by the @ picker at most (the quick pick filters them as the person types). */
const PICK_LIMIT = 5000;

/** The running servers' resources, or the words that say why there are none. */
export type ResourceLister = () => Promise<{ resources: McpResourceView[]; notes: string[] } | { error: string }>;

export interface ContextSources {
  resources: ResourceLister;
  /** Each terminal's last command (none: the window has no terminal history, @terminal is refused). */
  terminals: TerminalHistory | undefined;
}

export async function requestContext(what: "file" | "selection" | "pick", post: Post, sources: ContextSources): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme !== "file") {
    notice(
      post,
      "Nothing can be attached: no folder is open, and Hearth reads only inside a workspace folder. Open one (File › Open Folder…).",
    );
    return;
  }
  const attachment = what === "pick" ? await picked(folder, sources, post) : fromEditor(folder.fsPath, what, post);
  if (attachment) post({ type: "context/add", attachment });
}

function fromEditor(folder: string, what: "file" | "selection", post: Post): Attachment | undefined {
  // The chat has focus, so the active editor is the one the person left (as for Insert at cursor).
  const editor = vscode.window.activeTextEditor;
  const uri = editor?.document.uri;
  if (!editor || uri?.scheme !== "file") {
    notice(
      post,
      "No file to attach: open a file of the workspace folder in an " +
        `editor${what === "selection" ? " and select lines" : ""}, then press + ` +
        `${what === "file" ? "File" : "Selection"} again.`,
    );
    return undefined;
  }
  const target = inFolder(folder, uri.fsPath, "the active editor's file", "Attaching", "Open a file of the folder, then attach it again.");
  if (target.kind !== "file") {
    if (target.kind === "refused") notice(post, target.message);
    return undefined;
  }
  // The kernel reads the file as saved: say so rather than send something other than what is shown.
  if (editor.document.isDirty)
    notice(post, `${target.path} has unsaved changes: Hearth reads it as saved on disk. Save it (Ctrl+S) before sending to include them.`);
  if (what === "file") return { kind: "file", path: target.path };
  const selection = editor.selection;
  if (selection.isEmpty) {
    notice(post, `No lines are selected in ${target.path}: select the lines to attach, then press + Selection again.`);
    return undefined;
  }
  // A selection that ends at the start of a line does not take that line.
  const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return { kind: "selection", path: target.path, startLine: selection.start.line + 1, endLine };
}

type Item = vscode.QuickPickItem & { attachment?: Attachment; collect?: () => Collected | Promise<Collected> };

/** The editor's context, first in the picker: what only the editor holds, collected when picked. */
function editorItems(folder: vscode.Uri, terminals: TerminalHistory | undefined): Item[] {
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeName = active?.scheme === "file" ? vscode.workspace.asRelativePath(active, false) : undefined;
  return [
    { label: "Context from the editor", kind: vscode.QuickPickItemKind.Separator },
    { label: "@problems", description: "the workspace's problems", collect: () => collectProblems(folder.fsPath, "workspace") },
    ...(activeName
      ? [{ label: "@problems", description: `the problems of ${activeName}`, collect: () => collectProblems(folder.fsPath, "file") }]
      : []),
    {
      label: "@terminal",
      description: "the active terminal's last command and its output",
      collect: () =>
        terminals
          ? collectTerminal(terminals)
          : {
              refused:
                "The terminal was not attached: this window follows no terminal. Reload the window, run the command, then attach @terminal again.",
            },
    },
    { label: "@changes", description: "the working tree's diff (Git)", collect: () => collectChanges(folder) },
    { label: "@url", description: "a web page, fetched with web_fetch when you send (it asks first)", collect: askUrl },
  ];
}

/**
 * A web page's address (issue 29 item 3): the turn's first call fetches it with web_fetch, which is
 * opt-in (harness #11), so with it off the chip is refused here, naming the setting.
 */
async function askUrl(): Promise<Collected> {
  if (!vscode.workspace.getConfiguration("hearth").get<boolean>("tools.webFetch", false))
    return {
      refused:
        "No web page was attached: Hearth fetches it with web_fetch, which is off. Turn on the setting Hearth › Tools: Web Fetch (each fetch still asks first), then attach @url again.",
    };
  const url = await vscode.window.showInputBox({
    title: "Attach a web page",
    prompt: "Its address: Hearth fetches it with web_fetch when you send, after you allow the fetch",
    placeHolder: "https://example.com/page",
    ignoreFocusOut: true,
    validateInput: (text) => (isHttpUrl(text.trim()) ? undefined : "An http:// or https:// address"),
  });
  if (url === undefined) return { refused: "" }; // Escape: nothing attached, and nothing to say

  return { attachment: { kind: "url", path: url.trim() } };
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Every folder that holds one of the files, the workspace folder first (`.`). */
function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>(["."]);
  for (const f of files) for (let d = path.posix.dirname(f); d !== "."; d = path.posix.dirname(d)) folders.add(d);
  return [...folders].sort();
}

async function picked(folder: vscode.Uri, sources: ContextSources, post: Post): Promise<Attachment | undefined> {
  const [files, listed] = await Promise.all([
    vscode.workspace.findFiles(new vscode.RelativePattern(folder, "**/*"), "**/{node_modules,.git}/**", PICK_LIMIT),
    sources.resources(),
  ]);
  const names = files.map((f) => vscode.workspace.asRelativePath(f, false)).sort();
  const items: Item[] = [
    ...editorItems(folder, sources.terminals),
    { label: "Folders", kind: vscode.QuickPickItemKind.Separator },
    ...foldersOf(names).map((name): Item => ({ label: `${name}/`, description: "a listing", attachment: { kind: "folder", path: name } })),
    { label: "Files", kind: vscode.QuickPickItemKind.Separator },
    ...names.map((label): Item => ({ label, attachment: { kind: "file", path: label } })),
  ];
  if ("error" in listed) notice(post, `MCP resources are not offered: ${listed.error}`);
  else if (listed.resources.length > 0) {
    items.push({ label: "MCP resources", kind: vscode.QuickPickItemKind.Separator });
    for (const r of listed.resources)
      items.push({
        label: `${r.server}: ${r.name}`,
        description: r.uri,
        detail: r.description || undefined,
        attachment: { kind: "resource", path: r.uri, server: r.server },
      });
  }
  const choice = await vscode.window.showQuickPick(items, {
    title: "Attach context to the message",
    placeHolder:
      "Type to filter: the editor's problems, terminal and changes, the workspace's folders and files, the running MCP servers' resources",
    matchOnDescription: true,
  });
  if (!choice?.collect) return choice?.attachment;
  const collected = await choice.collect();
  if ("refused" in collected) {
    if (collected.refused) notice(post, collected.refused);
    return undefined;
  }
  return collected.attachment;
}

function notice(post: Post, message: string): void {
  post({ type: "chat/notice", level: "info", message });
}

// The chips' sources (issue 15 item 5): the active editor's file, its selected lines, or a file picked
// from the workspace. Only places are named here (never file contents): the kernel reads them through
// its anchored read_file when the message is sent. A place outside the folder is refused here first.
// The @ picker offers the running MCP servers' resources after the files (issue 28, item 5), as
// "server: name"; the kernel reads the one picked (resources/read) when the message is sent.
import * as vscode from "vscode";
import type { Attachment } from "../../shared/protocol/attachments.js";
import type { McpResourceView } from "../../shared/protocol/mcp.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import { inFolder } from "./applyTarget.js";

type Post = (message: ToWebview) => void;

/** Files offered by the @ picker at most (the quick pick filters them as the person types). */
const PICK_LIMIT = 5000;

/** The running servers' resources, or the words that say why there are none. */
export type ResourceLister = () => Promise<{ resources: McpResourceView[]; notes: string[] } | { error: string }>;

export async function requestContext(what: "file" | "selection" | "pick", post: Post, resources: ResourceLister): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme !== "file") {
    notice(
      post,
      "Nothing can be attached: no folder is open, and Hearth reads only inside a workspace folder. Open one (File › Open Folder…).",
    );
    return;
  }
  const attachment = what === "pick" ? await picked(folder, resources, post) : fromEditor(folder.fsPath, what, post);
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

type Item = vscode.QuickPickItem & { attachment?: Attachment };

async function picked(folder: vscode.Uri, resources: ResourceLister, post: Post): Promise<Attachment | undefined> {
  const [files, listed] = await Promise.all([
    vscode.workspace.findFiles(new vscode.RelativePattern(folder, "**/*"), "**/{node_modules,.git}/**", PICK_LIMIT),
    resources(),
  ]);
  const items: Item[] = files
    .map((f) => vscode.workspace.asRelativePath(f, false))
    .sort()
    .map((label) => ({ label, attachment: { kind: "file", path: label } }));
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
    title: "Attach a file or an MCP resource to the message",
    placeHolder: "Type to filter the workspace's files and the running MCP servers' resources; Hearth reads the one you pick when you send",
    matchOnDescription: true,
  });
  return choice?.attachment;
}

function notice(post: Post, message: string): void {
  post({ type: "chat/notice", level: "info", message });
}

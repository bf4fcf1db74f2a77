// Context attached to a message (issue 15): the kernel reads each attached file or selection with its
// own anchored read_file (beneath the workspace descriptor, bounded; never the client's file access)
// and an attached MCP resource from its running server (issue 28, item 5; bounded, text only),
// puts the text in the user message the model reads, and says what to journal with the message (its
// place, size and hash; written by the control plane's admission, in the message's transaction).
// Issue 29 item 3: a folder is listed by the kernel's anchored list_dir (bounded in depth and entries);
// the editor's context (problems, terminal, changes) arrives as the text the extension collected and
// is put in the message exactly as sent. A web page (`url`) is not read here: the turn's first round
// fetches it with web_fetch (turns/fetchFirst.ts); its block says so, and its result holds the page.
import { createHash } from "node:crypto";
import { composeMessage } from "../../../shared/attachmentText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { type Attachment, attachmentLabel, isEditorKind } from "../../../shared/protocol/attachments.js";
import type { Tool } from "../../agent/ports/tools.js";
import type { AttachmentRecord } from "../control/attachments.js";
import type { McpContext } from "../mcp/mcpContext.js";
import { parseHttpUrl } from "../../tools/httpClient.js";

const NEVER = new AbortController().signal;

/** Levels of a folder chip's listing: its entries and theirs, enough to see its shape. */
export const FOLDER_DEPTH = 2;

/** What a `url` block says in the message: the page itself is the turn's first web_fetch result. */
export const URL_BLOCK = "This page is fetched with web_fetch right after this message; that call's result is the page.";

/** The web pages a message attaches, in order: the run's first round fetches them. */
export function attachedUrls(attachments: readonly Attachment[]): string[] {
  return attachments.filter((a) => a.kind === "url").map((a) => a.path);
}

export class MessageAttachments {
  constructor(private readonly deps: { readFile: Tool; listDir: Tool; resources: Pick<McpContext, "read"> }) {}

  /** The message the model reads (typed text, then each attachment's text) and what to journal with it. */
  async compose(
    typed: string,
    attachments: readonly Attachment[],
    readOnly: boolean,
  ): Promise<{ message: string; records: AttachmentRecord[] }> {
    const blocks: { attachment: Attachment; text: string }[] = [];
    for (const a of attachments) blocks.push({ attachment: a, text: await this.read(a, readOnly) });
    const records = blocks.map(({ attachment, text }) => ({
      attachment,
      bytes: Buffer.byteLength(text),
      sha256: createHash("sha256").update(text).digest("hex"),
    }));
    return { message: composeMessage(typed, blocks), records };
  }

  private async read(a: Attachment, readOnly: boolean): Promise<string> {
    if (isEditorKind(a.kind)) {
      if (a.content === undefined)
        throw new HearthError(
          ErrorCode.InvalidParams,
          `refused: the attached ${attachmentLabel(a)} carries no text; the editor collects it when it is attached: attach it again with @`,
        );
      return a.content;
    }
    if (a.content !== undefined)
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the attached ${attachmentLabel(a)} carries text, but the kernel reads a ${a.kind} itself; send its place only`,
      );
    if (a.kind === "folder") return this.invoke(this.deps.listDir, { path: a.path, depth: FOLDER_DEPTH }, a);
    if (a.kind === "url") {
      if (!parseHttpUrl(a.path))
        throw new HearthError(
          ErrorCode.InvalidParams,
          `refused: the attached ${JSON.stringify(a.path.slice(0, 200))} is not an http(s) URL; attach a web page's address (http:// or https://)`,
        );
      return URL_BLOCK;
    }
    if (a.kind === "resource") {
      if (!a.server)
        throw new HearthError(
          ErrorCode.InvalidParams,
          `refused: the attached resource ${a.path} names no MCP server; attach it again with @`,
        );
      return this.deps.resources.read(a.server, a.path, readOnly);
    }
    if (a.kind === "selection" && (a.startLine === undefined || a.endLine === undefined || a.endLine < a.startLine))
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the selection ${attachmentLabel(a)} needs startLine ≤ endLine; select the lines again`,
      );
    const args = { path: a.path, ...(a.kind === "selection" ? { startLine: a.startLine, endLine: a.endLine } : {}) };
    return this.invoke(this.deps.readFile, args, a);
  }

  /** The anchored tool's output, or the refusal that names the chip and says what to do. */
  private async invoke(tool: Tool, args: Record<string, unknown>, a: Attachment): Promise<string> {
    const ctx = { callId: "attachment", signal: NEVER };
    const result = await tool.invoke(args, await tool.propose(args, ctx), ctx);
    if (!result.ok)
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the attached ${attachmentLabel(a)} could not be read (${result.output}); remove its chip or fix the ${a.kind === "folder" ? "folder" : "file"}, then send again`,
      );
    return result.output;
  }
}

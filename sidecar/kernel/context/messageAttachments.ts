// Context attached to a message (issue 15): the kernel reads each attached file or selection with its
// own anchored read_file (beneath the workspace descriptor, bounded; never the client's file access)
// and an attached MCP resource from its running server (issue 28, item 5; bounded, text only),
// puts the text in the user message the model reads, and says what to journal with the message (its
// place, size and hash; written by the control plane's admission, in the message's transaction).
import { createHash } from "node:crypto";
import { composeMessage } from "../../../shared/attachmentText.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { type Attachment, attachmentLabel } from "../../../shared/protocol/attachments.js";
import type { Tool } from "../../agent/ports/tools.js";
import type { AttachmentRecord } from "../control/attachments.js";
import type { McpContext } from "../mcp/mcpContext.js";

const NEVER = new AbortController().signal;

export class MessageAttachments {
  constructor(private readonly deps: { readFile: Tool; resources: Pick<McpContext, "read"> }) {}

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
    const ctx = { callId: "attachment", signal: NEVER };
    const result = await this.deps.readFile.invoke(args, await this.deps.readFile.propose(args, ctx), ctx);
    if (!result.ok)
      throw new HearthError(
        ErrorCode.InvalidParams,
        `refused: the attached ${attachmentLabel(a)} could not be read (${result.output}); remove its chip or fix the file, then send again`,
      );
    return result.output;
  }
}

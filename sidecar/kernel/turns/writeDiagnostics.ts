// Errors after an edit (issue 29 item 4): an accepted write_file/edit_file asks the client that runs
// the turn for the problems the write left in its file. Before the install the client notes the file's
// problems; after it, the client waits briefly for the language servers and reports the new ones, and
// that report is appended to the tool's result, so it is journaled with the call and the model reads
// it on its next round. A client that cannot answer (the CLI has no editor) leaves a sentence saying
// none were collected; the write itself is never held back or undone by any of this.
import type { Tool, ToolResult } from "../../agent/ports/tools.js";
import { ErrorCode, errorMessage } from "../../../shared/errors.js";
import { singleLine } from "../../../shared/boundedText.js";
import type { ClientChannel } from "../clientChannel.js";

/** The tools whose success leaves a file for the language servers to read again. */
const WRITING_TOOLS = new Set(["write_file", "edit_file"]);
/** How long the client may take to note the problems before the write (it only reads what VS Code holds). */
const BASELINE_WAIT_MS = 2_000;
/** How long the client may take after the write: its reload wait (2 s) and its wait for the language servers (8 s), and some slack. */
const REPORT_WAIT_MS = 12_000;

export interface WriteRun {
  readonly sessionId: string;
  readonly turnId: string;
}

/** write_file and edit_file with the client's report of new problems; every other tool as it is. */
export function withDiagnosticsAfterWrite(tool: Tool, client: ClientChannel, run: WriteRun): Tool {
  if (!WRITING_TOOLS.has(tool.definition.name)) return tool;
  return {
    definition: tool.definition,
    propose: (args, ctx) => tool.propose(args, ctx),
    async invoke(args, proposal, ctx): Promise<ToolResult> {
      const params = { ...run, callId: ctx.callId, path: String(args.path) };
      const baseline = await client
        .request("diagnostics/baseline", params, AbortSignal.timeout(BASELINE_WAIT_MS))
        .then(() => null)
        .catch((e: unknown) => notCollected(e));
      const result = await tool.invoke(args, proposal, ctx);
      if (!result.ok) return result;
      if (baseline !== null) return { ...result, output: `${result.output}\n\n${baseline}` };
      try {
        const { report } = await client.request("diagnostics/afterWrite", params, AbortSignal.timeout(REPORT_WAIT_MS));
        return typeof report === "string" ? { ...result, output: `${result.output}\n\n${report.trimEnd()}` } : result;
      } catch (e) {
        return { ...result, output: `${result.output}\n\n${notCollected(e)}` };
      }
    },
  };
}

function notCollected(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  // JSON-RPC's "method not found": the client has no editor to ask.
  if (code === ErrorCode.MethodNotFound)
    return "No problems were collected after this write: no editor is attached to this turn to report them.";
  return singleLine(`No problems were collected after this write: the editor did not report them (${errorMessage(e)}).`);
}

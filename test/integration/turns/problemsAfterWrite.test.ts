// Errors after an edit (issue 29 item 4), the kernel's part: an approved write_file asks the turn's
// client to note the file's problems before the install and to report the new ones after it; the
// report is appended to the tool's result, journaled with the call and shown to the model on its next
// round (the script checks the exact outputs). A client with no editor (the CLI does not answer these
// requests) gets a result saying none were collected; a refused write asks nothing. The kernel's turn
// service over a real journal file and the real workspace tools.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { ClientChannel } from "../../../sidecar/kernel/clientChannel.js";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

const REPORT =
  "This write left 1 error in a.ts that was not there before (from the editor's language servers):\na.ts:1:14 error ts(2322): x";
const NO_EDITOR = "No problems were collected after this write: no editor is attached to this turn to report them.";

/** A client that approves every call and answers the editor's questions with `editor` (or, without it, as the CLI does: not at all). */
function clientWith(k: ReturnType<typeof kernelParts>, asked: string[], editor?: (method: string, path: string) => unknown): ClientChannel {
  return {
    notify: k.client.notify,
    request: async (method: string, params: unknown) => {
      asked.push(`${method} ${(params as { path?: string }).path ?? ""}`.trim());
      if (method === "approval/request") return { decision: "approve", reason: "approved by the test" } as never;
      if (!editor) throw Object.assign(new Error(`Unhandled method ${method}`), { code: -32601 });
      return editor(method, (params as { path: string }).path) as never;
    },
  };
}

function toolOutputs(k: ReturnType<typeof kernelParts>, sessionId: string): string[] {
  return k.control.history(sessionId).messages.flatMap((m) => (m.role === "tool" ? [m.output] : []));
}

it("an approved write's result carries the editor's report of the problems it left, journaled and shown to the model (issue 29 item 4)", async () => {
  const k = kernelParts();
  const wrote = "wrote 30 bytes to `a.ts`";
  const { sessionId } = k.scriptedSession([
    { toolCalls: [{ name: "write_file", arguments: { path: "a.ts", content: 'export const n: number = "x";\n' } }] },
    { expectToolOutputs: [`${wrote}\n\n${REPORT}`], text: ["I will fix it."] },
  ]);
  const asked: string[] = [];
  const client = clientWith(k, asked, (method) => (method === "diagnostics/baseline" ? { noted: true } : { report: `${REPORT}\n` }));
  k.turns.start({ sessionId, message: "write a.ts" }, requestContext(client));
  const done = await k.completion();
  assert.equal(done.status, "completed", JSON.stringify(done));
  assert.deepEqual(
    asked,
    ["approval/request", "diagnostics/baseline a.ts", "diagnostics/afterWrite a.ts"],
    "noted before the install, reported after it",
  );
  assert.deepEqual(toolOutputs(k, sessionId), [`${wrote}\n\n${REPORT}`], "the journaled result is the one the model was shown");
  assert.equal(fs.readFileSync(path.join(k.root, "ws", "a.ts"), "utf8"), 'export const n: number = "x";\n');
  await k.close();
});

it("with no editor to ask (the CLI), the result says no problems were collected; the write is made all the same", async () => {
  const k = kernelParts();
  const { sessionId } = k.scriptedSession([
    { toolCalls: [{ name: "write_file", arguments: { path: "b.txt", content: "b\n" } }] },
    { expectToolOutputs: [`wrote 2 bytes to \`b.txt\`\n\n${NO_EDITOR}`], text: ["done"] },
  ]);
  const asked: string[] = [];
  k.turns.start({ sessionId, message: "write b.txt" }, requestContext(clientWith(k, asked)));
  assert.equal((await k.completion()).status, "completed");
  assert.deepEqual(
    asked,
    ["approval/request", "diagnostics/baseline b.txt"],
    "no report is asked of a client that could not note the problems",
  );
  assert.equal(fs.readFileSync(path.join(k.root, "ws", "b.txt"), "utf8"), "b\n");
  await k.close();
});

it("turned off in the editor (report null), the result is the write's alone; a write that fails asks for no report", async () => {
  const k = kernelParts();
  fs.writeFileSync(path.join(k.root, "ws", "c.txt"), "one\n");
  const { sessionId } = k.scriptedSession([
    {
      toolCalls: [
        { name: "edit_file", arguments: { path: "c.txt", oldText: "one", newText: "two" } },
        { name: "write_file", arguments: { path: "c.txt/inside", content: "x" } },
      ],
    },
    { text: ["done"] },
  ]);
  const asked: string[] = [];
  const client = clientWith(k, asked, (method) => (method === "diagnostics/baseline" ? { noted: false } : { report: null }));
  k.turns.start({ sessionId, message: "edit c.txt" }, requestContext(client));
  assert.equal((await k.completion()).status, "completed");
  const [edited, failed] = toolOutputs(k, sessionId);
  assert.equal(edited, "wrote 4 bytes to `c.txt`", "nothing is appended when the person turned it off");
  assert.ok(!failed!.includes("problems"), failed);
  assert.equal(asked.filter((a) => a.startsWith("diagnostics/afterWrite")).length, 1, "only the write that was made is reported on");
  await k.close();
});

// A call whose proposal the tool already refused (an edit_file oldText that is not in the file, a
// path outside the workspace) is never put to the person: the kernel's turn service over a real
// journal file and the real workspace tools; the client would approve anything it is asked.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { ClientChannel } from "../../../sidecar/kernel/clientChannel.js";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

it("a refused proposal asks no one; the call fails with the refusal and its ledger row says failed (harness #8, #6)", async () => {
  const k = kernelParts();
  const workspace = path.join(k.root, "ws");
  fs.writeFileSync(path.join(workspace, "a.txt"), "hello\n");
  const calls = [
    { name: "edit_file", arguments: { path: "a.txt", oldText: "absent", newText: "x" } },
    { name: "write_file", arguments: { path: "../outside.txt", content: "x" } },
  ];
  const asked: string[] = [];
  const client: ClientChannel = {
    notify: k.client.notify,
    request: async (method: string) => {
      asked.push(method);
      return { decision: "approve", reason: "approved by the test" } as never;
    },
  };
  const { sessionId } = k.scriptedSession([{ toolCalls: calls }, { text: ["done"] }]);
  const { turnId } = k.turns.start({ sessionId, message: "edit a.txt" }, requestContext(client));
  assert.equal((await k.completion()).status, "completed");
  assert.deepEqual(asked, [], "no approval/request for calls that cannot run");
  const results = k.control.history(sessionId).messages.flatMap((m) => (m.role === "tool" ? [{ ok: m.ok, output: m.output }] : []));
  assert.equal(results.length, 2);
  assert.equal(results[0]!.ok, false);
  assert.match(results[0]!.output, /^refused: oldText was not found in `a\.txt`/);
  assert.equal(results[1]!.ok, false);
  assert.match(results[1]!.output, /^refused: /);
  const ledger = k.journal.db
    .prepare(`SELECT tool, status, reason FROM tool_invocations WHERE run_id = ? ORDER BY created_at, rowid`)
    .all(turnId) as { tool: string; status: string; reason: string }[];
  assert.deepEqual(
    ledger.map((r) => [r.tool, r.status, r.reason]),
    results.map((r, i) => [calls[i]!.name, "failed", r.output]),
    "each call is journaled with its failed outcome",
  );
  assert.equal(fs.readFileSync(path.join(workspace, "a.txt"), "utf8"), "hello\n");
  await k.close();
});

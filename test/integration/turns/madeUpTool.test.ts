// A model that calls a tool the session never had (issue 23, item 6) through the kernel's turn
// service over a real journal file: the gate refuses the call, the turn completes, and every later
// turn of the session replays that committed history.
import assert from "node:assert/strict";
import { it } from "node:test";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

it("committed history always replays: a turn that called a made-up tool leaves its session usable (harness #5, #7)", async () => {
  const k = kernelParts();
  const { sessionId } = k.scriptedSession([
    { toolCalls: [{ name: "nosuch_tool", arguments: {} }] },
    { text: ["answered without it"] },
    { text: ["the next answer"] },
    { text: ["and the one after"] },
  ]);
  const statuses: string[] = [];
  for (const message of ["first", "second", "third"]) {
    k.events.length = 0;
    k.turns.start({ sessionId, message }, requestContext(k.client));
    const done = await k.completion();
    statuses.push(done.status === "completed" ? "completed" : `${done.status}: ${done.error?.message}`);
  }
  assert.deepEqual(statuses, ["completed", "completed", "completed"]);
  const tools = k.control.history(sessionId).messages.filter((m) => m.role === "tool");
  assert.deepEqual(
    tools.map((m) => m.role === "tool" && [m.name, m.ok, m.resultKind]),
    [["nosuch_tool", false, "refused"]],
  );
  await k.close();
});

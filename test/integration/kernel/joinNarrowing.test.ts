// At the kernel's depth (issue 22, item 2; issue 24, item 8): a client that initializes with stricter
// settings than the kernel was started with gets them for every run it starts, turns and tasks, and
// the answer says so; another client on the same kernel keeps the kernel's own.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { PROTOCOL_VERSION, type TurnEvent } from "../../../shared/protocol/index.js";
import type { ClientChannel } from "../../../sidecar/kernel/clientChannel.js";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

/** A client that records the approvals it is asked for and denies each. */
function askingClient() {
  const asked: string[] = [];
  const events: TurnEvent[] = [];
  const client: ClientChannel = {
    notify: (method, params) => {
      if (method === "turn/event") events.push((params as { event: TurnEvent }).event);
    },
    request: async (_method, params) => {
      asked.push((params as { call: { name: string } }).call.name);
      return { decision: "deny", reason: "denied by the test" } as never;
    },
  };
  return { client, asked, events };
}

async function completed(events: TurnEvent[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!events.some((e) => e.type === "completed")) {
    if (Date.now() > deadline) throw new Error("no completed event");
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("a client whose reads need approval, on a kernel started without: its read asks, another client's does not (issue 24, item 8)", async () => {
  const k = kernelParts();
  try {
    fs.writeFileSync(path.join(k.root, "ws", "secret.txt"), "the secret\n");
    const strict = askingClient();
    const loose = askingClient();
    const init = (c: ClientChannel, settings?: Record<string, string>) =>
      k.kernel.handlers.initialize(
        { clientName: "test", clientVersion: "0", protocolVersion: PROTOCOL_VERSION, settings },
        requestContext(c),
      );
    const answer = await init(strict.client, { HEARTH_APPROVE_READS: "1" });
    assert.deepEqual(answer.narrowed, [
      "reads: this client's reads, listings and searches ask first (the kernel was started without HEARTH_APPROVE_READS)",
    ]);
    assert.deepEqual((await init(loose.client)).narrowed, []);
    const rounds = [{ toolCalls: [{ name: "read_file", arguments: { path: "secret.txt" } }] }, { text: ["done"] }];
    for (const c of [strict, loose]) {
      const { sessionId } = k.scriptedSession(rounds, `script-${c === strict ? "strict" : "loose"}.json`);
      await k.kernel.handlers["turn/start"]({ sessionId, message: "read it" }, requestContext(c.client));
      await completed(c.events);
    }
    assert.deepEqual(strict.asked, ["read_file"]);
    assert.deepEqual(
      strict.events.flatMap((e) => (e.type === "tool_result" ? [e.ok] : [])),
      [false],
    );
    assert.deepEqual(loose.asked, [], "the kernel's own settings ask no one before a read");
    assert.ok(loose.events.some((e) => e.type === "tool_result" && e.ok && e.output.includes("the secret")));
  } finally {
    await k.close();
  }
});

it("a client whose settings offer fewer tools: its turn cannot call shell, and a task it starts keeps the narrower ceiling (issue 22, item 2)", async () => {
  const k = kernelParts();
  try {
    const c = askingClient();
    const answer = await k.kernel.handlers.initialize(
      { clientName: "test", clientVersion: "0", protocolVersion: PROTOCOL_VERSION, settings: { HEARTH_TOOLS: "read_file,list_dir" } },
      requestContext(c.client),
    );
    assert.equal(answer.narrowed.length, 1);
    assert.match(answer.narrowed[0]!, /^tools: this client's runs are offered read_file, list_dir, not /);
    const { sessionId } = k.scriptedSession([
      { toolCalls: [{ name: "shell", arguments: { command: "echo pwned > pwned.txt" } }] },
      { text: ["done"] },
    ]);
    await k.kernel.handlers["turn/start"]({ sessionId, message: "run it" }, requestContext(c.client));
    await completed(c.events);
    assert.equal(fs.existsSync(path.join(k.root, "ws", "pwned.txt")), false, "shell ran for a client whose settings offer no shell");
    assert.deepEqual(c.asked, [], "a tool the client's settings do not offer is refused, not asked about");
    const { task } = await k.kernel.handlers["task/start"](
      { instruction: "look around", model: "scripted:/nonexistent" },
      requestContext(c.client),
    );
    assert.deepEqual(task.tools, ["read_file", "list_dir"]);
  } finally {
    await k.close();
  }
});

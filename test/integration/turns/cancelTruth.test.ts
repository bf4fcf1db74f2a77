// turn/cancel tells one truth everywhere (spec 004 cancellation truth, issue 11 items 8 and 9): the
// kernel's turn service over a real journal file, real workspace tools, the real model host and
// session builder; only the model load of item 8 is held back, through the service's buildAgent.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, describe, it } from "node:test";
import { uuidv7 } from "../../../shared/ids.js";
import type { TurnEvent } from "../../../shared/protocol/index.js";
import { openJournal } from "../../../sidecar/journal/journal.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import type { ClientChannel } from "../../../sidecar/kernel/handlers/types.js";
import { ModelHost } from "../../../sidecar/kernel/model/modelHost.js";
import { buildSessionAgent, type RunRef } from "../../../sidecar/kernel/turns/sessionAgent.js";
import { TurnService } from "../../../sidecar/kernel/turns/turnService.js";
import { ScriptedModel } from "../../../sidecar/inference/scripted/scriptedModel.js";
import { buildWorkspaceTools } from "../../../sidecar/tools/buildWorkspaceTools.js";
import { tempDir } from "../../support/kernelProcess.js";

function kernelParts(holdModelLoad?: Promise<void>) {
  const root = tempDir("cancel");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const journal = openJournal(path.join(root, "journal.sqlite"));
  const control = new ControlPlane(journal, { ownerId: "local:tester", workspace, bootEpoch: uuidv7() });
  const tools = buildWorkspaceTools({ workspaceRoot: workspace, shell: false });
  const models = new ModelHost({ stateDir: path.join(root, "kv"), modelsDir: path.join(root, "models"), scripted: async (file) => ScriptedModel.fromFile(file, { HEARTH_ALLOW_SCRIPTED: "1" }) });
  const events: TurnEvent[] = [];
  const client: ClientChannel = {
    notify: (method, params) => { if (method === "turn/event") events.push((params as { event: TurnEvent }).event); },
    request: async () => ({ decision: "deny", reason: "denied by the test" }) as never,
  };
  const turns = new TurnService({
    control, log: () => undefined,
    buildAgent: async (run: RunRef, c: ClientChannel) => {
      await holdModelLoad; // the kernel's one model slot is still loading
      return buildSessionAgent({ control, models, tools, offered: tools.tools }, run, c);
    },
  });
  const completion = async () => {
    const deadline = Date.now() + 10_000;
    while (!events.some((e) => e.type === "completed")) {
      if (Date.now() > deadline) throw new Error("no completed event");
      await new Promise((r) => setTimeout(r, 20));
    }
    return events.find((e) => e.type === "completed") as Extract<TurnEvent, { type: "completed" }>;
  };
  const attemptRow = (runId: string) => journal.db.prepare(`SELECT status, cancel_dispatch_attempted AS d, cancel_adapter_acknowledged AS a FROM run_attempts WHERE run_id = ?`).get(runId);
  const close = async () => { await turns.stopAll(); await models.unload(); tools.close(); journal.close(); };
  return { control, turns, client, events, completion, attemptRow, close, root };
}

const ctx = (client: ClientChannel) => ({ clientId: "c", requestId: "1", signal: new AbortController().signal, client });

describe("turn/cancel tells one truth (spec 004 cancellation truth)", () => {
  const servers: http.Server[] = [];
  after(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });

  it("issue 11 item 8: cancelling a run whose model is still loading answers, streams and journals `cancelled`", async () => {
    let loaded!: () => void;
    const k = kernelParts(new Promise<void>((r) => { loaded = r; }));
    const script = path.join(k.root, "script.json");
    fs.writeFileSync(script, JSON.stringify({ rounds: [{ text: ["never shown"] }] }));
    const { sessionId } = k.control.createSession({ model: `scripted:${script}` });
    const { runId } = k.turns.start({ sessionId, message: "hello" }, ctx(k.client));
    const answer = k.turns.cancel(runId);
    setTimeout(loaded, 100); // the load finishes right after the cancel
    assert.deepEqual(await answer, { runId, dispatchAttempted: false, adapterAcknowledged: false });
    const completed = await k.completion();
    assert.equal(completed.status, "cancelled", "the stream says what the journal says (the CLI maps it to exit 130)");
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(k.events.filter((e) => e.type === "completed").length, 1, "one completion, never a later `failed`");
    assert.equal(k.control.history(sessionId).runs[0]!.status, "cancelled");
    assert.deepEqual(k.attemptRow(runId), { status: "cancelled", d: 0, a: 0 });
    await k.close();
  });

  it("issue 11 item 9: an OpenAI-compatible server that keeps generating after the disconnect is never reported as acknowledging", async () => {
    let disconnected = false;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      // Like a real server: the disconnect does not stop generation on its side.
      const tick = setInterval(() => { res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: "word " } }] })}\n\n`); }, 20);
      res.on("close", () => { disconnected = true; setTimeout(() => clearInterval(tick), 500); });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const k = kernelParts();
    const { sessionId } = k.control.createSession({ model: `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m` });
    const { runId } = k.turns.start({ sessionId, message: "write a long story" }, ctx(k.client));
    const deadline = Date.now() + 10_000;
    while (!k.events.some((e) => e.type === "answer_delta")) {
      if (Date.now() > deadline) throw new Error("no answer delta");
      await new Promise((r) => setTimeout(r, 20));
    }
    const answer = await k.turns.cancel(runId);
    assert.deepEqual(answer, { runId, dispatchAttempted: true, adapterAcknowledged: false });
    assert.equal((await k.completion()).status, "cancelled");
    for (let i = 0; i < 100 && !disconnected; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(disconnected, "the local turn did stop: it closed the stream");
    assert.deepEqual(k.attemptRow(runId), { status: "cancelled", d: 1, a: 0 }, "the journal records no acknowledgement either");
    await k.close();
  });
});

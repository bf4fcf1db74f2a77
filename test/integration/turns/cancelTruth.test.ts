// turn/cancel tells one truth everywhere (control plane #13, issue 11 items 8 and 9): the
// kernel's turn service over a real journal file, real workspace tools, the real model host and
// session builder; only the model load of item 8 is held back, through the service's buildAgent.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { kernelParts, kernelPartsLoadingModel, requestContext } from "../../support/inProcessTurns.js";

describe("turn/cancel tells one truth (control plane #13)", () => {
  const servers: http.Server[] = [];
  after(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  it("issue 11 item 8: cancelling a run whose model is still loading answers, streams and journals `cancelled`", async () => {
    const { k, loaded } = kernelPartsLoadingModel();
    const { sessionId } = k.scriptedSession([{ text: ["never shown"] }]);
    const { turnId } = k.turns.start({ sessionId, message: "hello" }, requestContext(k.client));
    const answer = k.turns.cancel(turnId);
    setTimeout(loaded, 100); // the load finishes right after the cancel
    assert.deepEqual(await answer, { turnId, dispatchAttempted: false, adapterAcknowledged: false });
    const completed = await k.completion();
    assert.equal(completed.status, "cancelled", "the stream says what the journal says (the CLI maps it to exit 130)");
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(k.events.filter((e) => e.type === "completed").length, 1, "one completion, never a later `failed`");
    assert.equal(k.control.history(sessionId).runs[0]!.status, "cancelled");
    assert.deepEqual(k.attemptRow(turnId), { status: "cancelled", d: 0, a: 0 });
    await k.close();
  });

  it("harness #18 #22: a cancel is acknowledged only once the engine's native work has ended, not when the turn answered", async () => {
    let nativeEnds!: () => void;
    const native = new Promise<void>((r) => {
      nativeEnds = r;
    });
    const k = kernelParts(undefined, {}, () => native);
    const { sessionId } = k.scriptedSession([{ text: ["a", "b", "c", "d", "e", "f"], delayMs: 200 }]);
    const { turnId } = k.turns.start({ sessionId, message: "hello" }, requestContext(k.client));
    const deadline = Date.now() + 10_000;
    while (!k.events.some((e) => e.type === "answer_delta")) {
      if (Date.now() > deadline) throw new Error("no answer delta");
      await new Promise((r) => setTimeout(r, 20));
    }
    let answered = false;
    const answer = k.turns.cancel(turnId).finally(() => {
      answered = true;
    });
    assert.equal((await k.completion()).status, "cancelled", "the turn itself stopped at once");
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(answered, false, "the acknowledgement waits for the native work of the cancelled round");
    nativeEnds();
    assert.deepEqual(await answer, { turnId, dispatchAttempted: true, adapterAcknowledged: true });
    assert.deepEqual(k.attemptRow(turnId), { status: "cancelled", d: 1, a: 1 });
    await k.close();
  });

  it("a cancelled turn's reason names the cancel once, in the stream and in the journal: never `cancelled: cancelled: …` (issue 23, item 16)", async () => {
    const k = kernelParts();
    const { sessionId } = k.scriptedSession([{ text: ["Long", " answer", " coming"], delayMs: 200 }]);
    const { turnId } = k.turns.start({ sessionId, message: "hello" }, requestContext(k.client));
    const deadline = Date.now() + 10_000;
    while (!k.events.some((e) => e.type === "answer_delta")) {
      if (Date.now() > deadline) throw new Error("no answer delta");
      await new Promise((r) => setTimeout(r, 20));
    }
    await k.turns.cancel(turnId);
    const completed = await k.completion();
    assert.equal(completed.status, "cancelled");
    assert.equal(completed.error?.message, "the turn was cancelled; completed tool batches stay committed");
    const reasons = k.control.history(sessionId).runs[0]!.attempts.map((a) => a.reason ?? "");
    assert.ok(reasons.length > 0 && reasons.every((r) => !/cancelled: cancelled:/.test(r)), JSON.stringify(reasons));
    await k.close();
  });

  it("issue 11 item 9: an OpenAI-compatible server that keeps generating after the disconnect is never reported as acknowledging", async () => {
    let disconnected = false;
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        if ((JSON.parse(raw) as { stream?: boolean }).stream !== true) {
          // A capability probe at load: answer it with a call to whatever tool it offers.
          const tool = (JSON.parse(raw) as { tools?: { function: { name: string } }[] }).tools?.[0]?.function.name;
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              choices: [
                { message: { content: "OK", tool_calls: tool ? [{ type: "function", function: { name: tool, arguments: "{}" } }] : [] } },
              ],
            }),
          );
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        // Like a real server: the disconnect does not stop generation on its side.
        const tick = setInterval(() => {
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: "word " } }] })}\n\n`);
        }, 20);
        res.on("close", () => {
          disconnected = true;
          setTimeout(() => clearInterval(tick), 500);
        });
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const k = kernelParts();
    const { sessionId } = k.control.createSession({ model: `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m` });
    const { turnId } = k.turns.start({ sessionId, message: "write a long story" }, requestContext(k.client));
    const deadline = Date.now() + 10_000;
    while (!k.events.some((e) => e.type === "answer_delta")) {
      if (Date.now() > deadline) throw new Error("no answer delta");
      await new Promise((r) => setTimeout(r, 20));
    }
    const answer = await k.turns.cancel(turnId);
    assert.deepEqual(answer, { turnId, dispatchAttempted: true, adapterAcknowledged: false });
    assert.equal((await k.completion()).status, "cancelled");
    for (let i = 0; i < 100 && !disconnected; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(disconnected, "the local turn did stop: it closed the stream");
    assert.deepEqual(k.attemptRow(turnId), { status: "cancelled", d: 1, a: 0 }, "the journal records no acknowledgement either");
    await k.close();
  });
});

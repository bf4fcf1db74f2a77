// How a chat-completions stream may end. llama-server always ends with a finish_reason and [DONE]
// and, killed, breaks the chunked framing (test/integration/openai covers both); a proxy that times
// out or a server restarting behind one can instead close a stream cleanly in the middle, which
// only a hand-written server here can produce.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { OpenAiAgentModel } from "../../../../../sidecar/inference/openai/openaiAgentModel.js";

let ending: string[] = [];
let server: http.Server;
let baseUrl: string;
const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;

before(async () => {
  server = http.createServer((req, res) => {
    req.resume().on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(ev({ choices: [{ delta: { content: "The first half" } }] }));
      res.end(ending.join(""));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => server.close());

const generate = () =>
  new OpenAiAgentModel({ baseUrl, model: "m", env: {} }).generate(
    { sessionKey: "s", messages: [{ role: "user", text: "hi" }], tools: [], options: {}, signal: new AbortController().signal },
    () => undefined,
  );

test("a stream closed cleanly before a finish_reason or [DONE] fails the round instead of passing half an answer as the whole (harness #3)", async () => {
  ending = [];
  await assert.rejects(
    generate(),
    (e: unknown) =>
      e instanceof HearthError &&
      e.code === ErrorCode.ModelUnavailable &&
      e.message.includes(baseUrl) &&
      /no finish_reason and no \[DONE\].*send the message again/.test(e.message),
  );
});

test("either end marker alone is a finished stream: a finish_reason without [DONE], or [DONE] without a finish_reason", async () => {
  ending = [ev({ choices: [{ delta: {}, finish_reason: "stop" }] })];
  assert.equal((await generate()).text, "The first half");
  ending = ["data: [DONE]\n\n"];
  assert.equal((await generate()).stopReason, "end");
});

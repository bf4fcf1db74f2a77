// How a chat-completions stream may end. llama-server always ends with a finish_reason and [DONE]
// and, killed, breaks the chunked framing (test/integration/openai covers both); a proxy that times
// out or a server restarting behind one can instead close a stream cleanly in the middle, which
// only a hand-written server here can produce.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import type { ModelChunk } from "../../../../../sidecar/agent/ports/model.js";
import { OpenAiAgentModel } from "../../../../../sidecar/inference/openai/openaiAgentModel.js";
import { StreamedRound } from "../../../../../sidecar/inference/openai/streamedRound.js";

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

test("a streamed tool call is announced once, with its whole name, at its first argument text, then the length of each piece of its arguments (issue 25, item 4)", () => {
  const chunks: ModelChunk[] = [];
  const round = new StreamedRound((c) => chunks.push(c));
  const call = (index: number, fn: { name?: string; arguments?: string }, id?: string) =>
    round.add({ choices: [{ delta: { tool_calls: [{ index, ...(id ? { id } : {}), function: fn }] } }] });
  call(0, { name: "read_" }, "a");
  call(0, { name: "file", arguments: "" });
  assert.deepEqual(chunks, [], "no argument text yet: the name may still grow");
  call(0, { arguments: '{"path":' });
  call(0, { arguments: '"a.ts"}' });
  call(1, { name: "list_dir", arguments: "{}" }, "b");
  round.add({ choices: [{ delta: {}, finish_reason: "tool_calls" }] });
  assert.deepEqual(chunks, [
    { type: "tool_call_started", index: 0, name: "read_file" },
    { type: "tool_call_args", index: 0, chars: 8 },
    { type: "tool_call_args", index: 0, chars: 7 },
    { type: "tool_call_started", index: 1, name: "list_dir" },
    { type: "tool_call_args", index: 1, chars: 2 },
  ]);
  assert.deepEqual(
    round.round().toolCalls.map((c) => [c.name, c.arguments]),
    [
      ["read_file", { path: "a.ts" }],
      ["list_dir", {}],
    ],
  );
});

// The OpenAI-compatible adapter against a tiny chat-completions server on 127.0.0.1.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { HEARTH_VERSION } from "../../../../../shared/version.js";
import { OpenAiAgentModel } from "../../../../../sidecar/inference/openai/openaiAgentModel.js";
import type { GenerationRequest, ModelChunk, ModelMessage } from "../../../../../sidecar/agent/ports/model.js";

const KEY = "sk-test-secret-123";
const seen: { auth?: string; userAgent?: string; body: { messages: unknown[]; tools?: unknown[]; stream: boolean } }[] = [];
let mode: "tool" | "answer" | "hang" | "401" = "tool";
let server: http.Server;
let baseUrl: string;
let hangingClosed: Promise<void> = Promise.resolve();

const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;

before(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      seen.push({ auth: req.headers.authorization, userAgent: req.headers["user-agent"], body: JSON.parse(raw) });
      if (mode === "401") {
        res.writeHead(401);
        res.end(`bad key ${KEY}`);
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (mode === "tool") {
        // One call split over several deltas, the way servers stream arguments; CRLF and a comment too.
        res.write(": keep-alive\r\n\r\n");
        res.write(
          ev({
            choices: [
              { delta: { tool_calls: [{ index: 0, id: "prov-1", type: "function", function: { name: "read_file", arguments: "" } }] } },
            ],
          }),
        );
        res.write(
          ev({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"path": ' } }] } }] }).replace(/\n/g, "\r\n"),
        );
        res.write(
          ev({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }, finish_reason: "tool_calls" }] }),
        );
        res.end("data: [DONE]\n\n");
      } else if (mode === "answer") {
        res.write(ev({ choices: [{ delta: { reasoning_content: "Looking at the file. " } }] }));
        for (const part of ["It ", "exports ", "two functions."]) res.write(ev({ choices: [{ delta: { content: part } }] }));
        res.write(ev({ choices: [{ delta: {}, finish_reason: "stop" }] }));
        res.end("data: [DONE]\n\n");
      } else {
        res.write(ev({ choices: [{ delta: { content: "partial" } }] }));
        hangingClosed = new Promise((r) => res.on("close", () => r()));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const tools = [
  {
    name: "read_file",
    description: "Read a file",
    parameters: { type: "object" as const, properties: { path: { type: "string" as const } }, required: ["path"] },
  },
];
const req = (messages: ModelMessage[], signal = new AbortController().signal): GenerationRequest => ({
  sessionKey: "s",
  messages,
  tools,
  options: { temperature: 0, maxTokens: 100 },
  signal,
});

test("streamed tool_calls deltas assemble into one proposed call, then a tool result yields a streamed answer (harness #1, #3)", async () => {
  const model = new OpenAiAgentModel({ baseUrl, model: "m", env: { OPENAI_API_KEY: KEY } });
  mode = "tool";
  const r1 = await model.generate(req([{ role: "user", text: "what is in a.ts?" }]), () => undefined);
  assert.deepEqual(r1.toolCalls, [{ name: "read_file", arguments: { path: "a.ts" }, providerCallId: "prov-1" }]);
  assert.equal(r1.stopReason, "tool_calls");
  assert.equal(seen.at(-1)!.auth, `Bearer ${KEY}`);
  assert.equal(seen.at(-1)!.body.stream, true);

  mode = "answer";
  const chunks: ModelChunk[] = [];
  const r2 = await model.generate(
    req([
      { role: "user", text: "what is in a.ts?" },
      { role: "assistant", text: "", toolCalls: [{ callId: "k-1", name: "read_file", arguments: { path: "a.ts" } }] },
      { role: "tool", callId: "k-1", name: "read_file", output: "export function a() {}" },
    ]),
    (c) => chunks.push(c),
  );
  assert.equal(r2.text, "It exports two functions.");
  assert.equal(r2.reasoning, "Looking at the file. ");
  assert.equal(
    chunks
      .filter((c) => c.type === "answer")
      .map((c) => c.text)
      .join(""),
    r2.text,
  );
  assert.deepEqual(chunks[0], { type: "reasoning", text: "Looking at the file. " });
  // Kernel-minted call ids go to the server, never the provider's (harness #1 port contract).
  assert.deepEqual(seen.at(-1)!.body.messages.slice(1), [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "k-1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } }],
    },
    { role: "tool", tool_call_id: "k-1", content: "export function a() {}" },
  ]);
});

test("abort mid-stream rejects with the signal's reason after the connection is closed (harness #18, #22)", async () => {
  const model = new OpenAiAgentModel({ baseUrl, model: "m", env: {} });
  mode = "hang";
  const ac = new AbortController();
  const reason = new Error("cancelled by user");
  const p = model.generate(req([{ role: "user", text: "hi" }], ac.signal), () => ac.abort(reason));
  await assert.rejects(p, (e) => e === reason);
  await hangingClosed; // the server saw the stream closed: nothing outlives the rejection
});

test("if onChunk throws the stream stops and generate rejects with that error (harness #18)", async () => {
  const model = new OpenAiAgentModel({ baseUrl, model: "m", env: {} });
  mode = "answer";
  const boom = new Error("view gone");
  let n = 0;
  await assert.rejects(
    model.generate(req([{ role: "user", text: "hi" }]), () => {
      n++;
      throw boom;
    }),
    (e) => e === boom,
  );
  assert.equal(n, 1);
});

test("the API key never appears in an error message (issue 6, item 6)", async () => {
  const model = new OpenAiAgentModel({ baseUrl, model: "m", apiKey: KEY });
  mode = "401";
  await assert.rejects(
    model.generate(req([{ role: "user", text: "hi" }]), () => undefined),
    (e: unknown) =>
      e instanceof Error && e.message.includes("HTTP 401") && !e.message.includes(KEY) && /HEARTH_OPENAI_API_KEY/.test(e.message),
  );
  assert.equal(JSON.stringify(model).includes(KEY), false, "the key is not an enumerable field");
});

test("every request to the model server, the capability probes and each round, names Hearth's exact version as its User-Agent (harness #11)", async () => {
  mode = "answer";
  const from = seen.length;
  const model = await OpenAiAgentModel.connect({ baseUrl, model: "m", env: {} });
  await model.generate(req([{ role: "user", text: "hi" }]), () => undefined);
  const requests = seen.slice(from);
  assert.equal(requests.length, 4, "three probes and one round");
  assert.deepEqual(
    requests.map((r) => r.userAgent),
    requests.map(() => `Hearth/${HEARTH_VERSION}`),
  );
});

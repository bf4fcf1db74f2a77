// The OpenAI-compatible adapter proves its capabilities at load against a real HTTP server on
// 127.0.0.1 (harness #20, issue 11 items 2 and 5): unknown is never passed on to the harness as
// if it were proven, and the thinking option reaches the request only where the server honours it.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { OpenAiAgentModel } from "../../../../../sidecar/inference/openai/openaiAgentModel.js";
import { builder, CounterTool } from "../../../../support/harnessFixtures.js";

interface Behaviour {
  tools: "call" | "ignore" | "reject";
  thinking: "toggle" | "always" | "never";
}

type Body = { stream?: boolean; tools?: unknown[]; chat_template_kwargs?: { enable_thinking?: boolean } };

const servers: http.Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** A tiny chat-completions server whose template behaves as `b` says; it records every body. */
async function serve(b: Behaviour): Promise<{ baseUrl: string; bodies: Body[] }> {
  const bodies: Body[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as Body;
      bodies.push(body);
      if (body.tools && b.tools === "reject") {
        res.writeHead(400);
        res.end("tools are not supported by this template");
        return;
      }
      const thinking = b.thinking === "always" || (b.thinking === "toggle" && body.chat_template_kwargs?.enable_thinking !== false);
      const reasoning = thinking ? { reasoning_content: "Let me think." } : {};
      if (body.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: "OK" }, finish_reason: "stop" }] })}\n\n`);
        res.end("data: [DONE]\n\n");
        return;
      }
      const message =
        body.tools && b.tools === "call"
          ? {
              content: null,
              tool_calls: [{ id: "p1", type: "function", function: { name: "hearth_probe", arguments: "{}" } }],
              ...reasoning,
            }
          : { content: "OK", ...reasoning };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ message, finish_reason: "stop" }] }));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

const connect = (baseUrl: string) => OpenAiAgentModel.connect({ baseUrl, model: "m", env: {} });

describe("openai capability probe", () => {
  it("unknown capabilities fail closed: an unprobed openai adapter cannot run tools (harness #20, issue 11 item 5)", () => {
    const unprobed = new OpenAiAgentModel({ baseUrl: "http://127.0.0.1:9/v1", model: "m", env: {} });
    assert.equal(unprobed.capabilities.toolCalls, "unknown");
    assert.throws(() => builder(unprobed, [new CounterTool()]).builder.build(), /tools need a model whose tool calls are proven/);
  });

  it("a server that answers the tool probe with a call proves tool calls; tools then run (issue 11 item 5)", async () => {
    const { baseUrl, bodies } = await serve({ tools: "call", thinking: "never" });
    const model = await connect(baseUrl);
    assert.equal(model.capabilities.toolCalls, "proven");
    assert.equal(bodies[0]!.stream, false);
    assert.ok(builder(model, [new CounterTool()]).builder.build());
  });

  it("a server that ignores or rejects tools disproves them, and the session refuses tools with what to do (issue 11 item 5)", async () => {
    for (const tools of ["ignore", "reject"] as const) {
      const model = await connect((await serve({ tools, thinking: "never" })).baseUrl);
      assert.equal(model.capabilities.toolCalls, "disproven", tools);
      assert.throws(
        () => builder(model, [new CounterTool()]).builder.build(),
        /tools need a model whose tool calls are proven \(this model's are disproven\).*build the session without tools/,
      );
    }
  });

  it("an unreachable server fails the load with what to do, not later as an unknown (issue 11 item 5)", async () => {
    await assert.rejects(connect("http://127.0.0.1:9/v1"), /cannot reach the model server.*start the server/);
  });

  it("thinking on/off is sent as chat_template_kwargs when the server honours it, never otherwise (harness #15, issue 11 item 2)", async () => {
    const { baseUrl, bodies } = await serve({ tools: "call", thinking: "toggle" });
    const model = await connect(baseUrl);
    assert.equal(model.capabilities.thinkingToggle, "proven");
    const round = (thinking?: "on" | "off" | "auto") =>
      model.generate(
        {
          sessionKey: "s",
          messages: [{ role: "user", text: "hi" }],
          tools: [],
          signal: new AbortController().signal,
          options: thinking ? { thinking } : {},
        },
        () => undefined,
      );
    await round("off");
    assert.deepEqual(bodies.at(-1)!.chat_template_kwargs, { enable_thinking: false });
    await round("on");
    assert.deepEqual(bodies.at(-1)!.chat_template_kwargs, { enable_thinking: true });
    await round("auto");
    assert.equal(bodies.at(-1)!.chat_template_kwargs, undefined, "auto leaves the template's default");
    for (const thinking of ["always", "never"] as const) {
      const other = await connect((await serve({ tools: "call", thinking })).baseUrl);
      assert.equal(other.capabilities.thinkingToggle, "disproven", `a server that thinks ${thinking} has no toggle`);
    }
  });
});

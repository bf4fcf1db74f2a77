// `hearth exec` as a user runs it against an `openai:` model on llama.cpp's own server (issue 16,
// item 4): the whole agent loop through a kernel, and what the person sees when the server dies in
// the middle of an answer.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";
import { isolatedEnv, runCli, startCli } from "../../support/cliProcess.js";
import { assertCompleteBatches } from "../../support/historyAssertions.js";
import { tempDir } from "../../support/kernelProcess.js";
import { asciiOnly, startLlamaServer, WORDS_ONLY } from "../../support/llamaServer.js";

const roles = (messages: HistoryMessage[]) => messages.map((m) => m.role);

function workspace(): { ws: string; db: string; root: string } {
  const root = tempDir("openai-exec");
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  return { ws, db: path.join(root, "journal.sqlite"), root };
}

it("hearth exec on llama-server: tool call → anchored read → result back to the server → streamed answer, committed (harness #1, #3, #6, #8)", async (t) => {
  const { tool } = ensureFixtureModels();
  const server = await startLlamaServer({ model: tool, args: await asciiOnly(tool) });
  try {
    const { ws, db, root } = workspace();
    const env = { ...isolatedEnv(root), HEARTH_TOOLS: "read_file" };
    const model = `openai:${server.baseUrl}#tiny`;
    const started = performance.now();
    const run = await runCli(
      ["exec", "--workspace", ws, "--db", db, "--model", model, "--approve", "reads", "--json", "What is in a.ts?"],
      env,
    );
    t.diagnostic(`hearth exec took ${(performance.now() - started).toFixed(0)} ms (kernel start, 3 probe requests, the rounds)`);
    assert.equal(run.code, 0, `${run.stderr}\n${run.stdout}`);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sessionId: string; event: { type: string; text?: string; call?: { arguments: unknown } } });
    // The tool model may propose more than one call in a round (docs/models.md); each is answered.
    const calls = events.flatMap((e) => (e.event.type === "tool_call" ? [e.event.call!] : []));
    assert.ok(calls.length >= 1, `llama-server streamed no tool call: ${run.stdout}`);
    assert.equal(events.filter((e) => e.event.type === "tool_result").length, calls.length, run.stdout);
    const streamed = events.flatMap((e) => (e.event.type === "answer_delta" ? [e.event.text] : [])).join("");
    assert.equal(streamed, TOOL_MODEL_ANSWER, "the answer the server wrote after the tool results was not streamed");
    assert.deepEqual(events.at(-1)!.event, { type: "completed", status: "completed" });

    const show = await runCli(["show", "--workspace", ws, "--db", db, "--json", events[0]!.sessionId], env);
    assert.equal(show.code, 0, show.stderr);
    const history = JSON.parse(show.stdout) as { messages: HistoryMessage[]; runs: { ledger: { tool: string; status: string }[] }[] };
    assertCompleteBatches(history.messages);
    assert.equal(history.messages[0]!.role, "user");
    assert.deepEqual(
      history.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => c.arguments) : [])),
      calls.map((c) => c.arguments),
      "the journal holds other arguments than the server proposed",
    );
    assert.equal(history.messages.filter((m) => m.role === "tool").length, calls.length);
    assert.deepEqual(history.messages.at(-1), { ...history.messages.at(-1), role: "assistant", text: TOOL_MODEL_ANSWER });
    // The server's random paths name no file, so each read fails; each ran once, through the ledger.
    assert.deepEqual(
      history.runs[0]!.ledger.map((l) => `${l.tool}:${l.status}`),
      calls.map(() => "read_file:failed"),
    );
  } finally {
    await server.stop();
  }
});

it("hearth exec when llama-server is killed mid-answer: exit 1 with what happened and what to do; hearth show keeps the message and no partial answer (harness #3, #10)", async () => {
  const server = await startLlamaServer({ model: ensureFixtureModels().chat, args: WORDS_ONLY });
  try {
    const { ws, db, root } = workspace();
    // No tools: the chat model's server disproves tool calls (adapterStream.test.ts).
    const env = { ...isolatedEnv(root), HEARTH_TOOLS: "none" };
    const cli = startCli(["exec", "--workspace", ws, "--db", db, "--model", `openai:${server.baseUrl}#tiny`, "Tell me a story."], env);
    let killed = false;
    cli.child.stdout!.on("data", (chunk: string) => {
      // Without --json, stdout carries only the streamed answer.
      if (!killed && chunk.length > 0) {
        killed = true;
        void server.kill("SIGKILL");
      }
    });
    const run = await cli.result;
    assert.ok(killed, `no answer was streamed before the exit: ${run.stdout}${run.stderr}`);
    assert.equal(run.code, 1, "exit status 1 is a failed turn (hearth exec --help)");
    assert.match(run.stderr, /turn failed: .*the model server at http:\/\/127\.0\.0\.1:\d+\/v1 broke off the answer before it finished/);
    assert.match(run.stderr, /Check that the server is still running .*then send the message again/);

    const sessionId = /session (\S+) · run \S+ · failed/.exec(run.stderr)?.[1];
    assert.ok(sessionId, `the session is not named: ${run.stderr}`);
    const show = await runCli(["show", "--workspace", ws, "--db", db, "--json", sessionId], env);
    assert.equal(show.code, 0, show.stderr);
    const history = JSON.parse(show.stdout) as { messages: HistoryMessage[] };
    assert.deepEqual(roles(history.messages), ["user"], "the typed message is kept; the partial answer is not");
  } finally {
    await server.stop();
  }
});

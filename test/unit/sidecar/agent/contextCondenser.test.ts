// Condensing instead of dying (issue 13, item 3): before a round that would not fit, the biggest,
// oldest tool outputs are elided, then older turns summarised; the system prompt and recent turns stay
// verbatim, the committed history never changes, and every new view is journaled before it is used.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { AgentMessage } from "../../../../sidecar/agent/index.js";
import { ContextCondenser } from "../../../../sidecar/agent/contextCondenser.js";
import type { CondensationRecord } from "../../../../sidecar/agent/ports/context.js";
import type { GenerationRequest, ModelMessage } from "../../../../sidecar/agent/ports/model.js";
import { FnModel } from "../../../support/harnessFixtures.js";

const CONTEXT = 1000;
const tokens = (messages: ModelMessage[]) => messages.reduce((n, m) => n + Math.ceil(("text" in m ? m.text : m.output).length / 4) + 4, 0);

/** A model that counts 4 characters a token and answers every request with a fixed summary. */
function countingModel() {
  const model = new FnModel(async () => ({
    text: "SUMMARY: asked for files, read them.",
    reasoning: "",
    toolCalls: [],
    stopReason: "end",
  }));
  return Object.assign(model, {
    measure: async (r: Omit<GenerationRequest, "signal">) => ({ promptTokens: tokens(r.messages), contextSize: CONTEXT }),
  });
}

function turn(i: number, outputChars: number): AgentMessage[] {
  return [
    { role: "user", text: `request ${i}` },
    { role: "assistant", text: "", toolCalls: [{ callId: `c${i}`, name: "read_file", arguments: { path: `f${i}.txt` } }] },
    { role: "tool", callId: `c${i}`, name: "read_file", ok: true, output: "x".repeat(outputChars) },
    { role: "assistant", text: `answer ${i}`, toolCalls: [] },
  ];
}

function fitInput(history: AgentMessage[]) {
  return {
    sessionKey: "s",
    instructions: [{ role: "system" as const, text: "You are Hearth." }],
    history,
    pending: [{ role: "user" as const, text: "next question" }],
    turnStart: history.length,
    signal: new AbortController().signal,
    requestOf: (messages: AgentMessage[]) => ({
      sessionKey: "s",
      messages: messages.map(
        (m): ModelMessage =>
          m.role === "tool"
            ? { role: "tool", callId: m.callId, name: m.name, output: m.output }
            : m.role === "assistant"
              ? { role: "assistant", text: m.text, toolCalls: m.toolCalls }
              : m,
      ),
      tools: [],
      options: { maxTokens: 100 },
    }),
  };
}

it("a prompt that fits is sent as it is, and nothing is journaled (issue 13)", async () => {
  const saved: CondensationRecord[] = [];
  const history = [...turn(1, 100), ...turn(2, 100)];
  const out = await new ContextCondenser(countingModel(), { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.equal(out.length, 1 + history.length + 1);
  assert.deepEqual(saved, []);
});

it("the biggest, oldest tool outputs are elided first, with a marker saying how to get them back; recent turns stay verbatim (issue 13)", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  // 600 + 2000 + 1200 characters of output; the last turn's 2000 stay whatever happens.
  const history = [...turn(1, 600), ...turn(2, 2000), ...turn(3, 1200), ...turn(4, 2000)];
  const out = await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.equal(saved.length, 1);
  assert.deepEqual(saved[0]!.view.elidedCallIds, ["c2", "c3"], "biggest first, and only as many as needed");
  assert.equal(saved[0]!.view.summary, null, "eliding was enough: no summary");
  assert.ok(saved[0]!.tokensAfter + 100 <= CONTEXT && saved[0]!.tokensBefore > CONTEXT - 100, JSON.stringify(saved[0]));
  const marker = out.find((m) => m.role === "tool" && m.callId === "c2") as { output: string };
  assert.match(
    marker.output,
    /^\[2000 characters of read_file output elided by Hearth to fit the context; call read_file again with \{"path":"f2.txt"\} to see it\]$/,
  );
  assert.equal(out[0]!.role === "system" && out[0]!.text, "You are Hearth.", "the system prompt stays verbatim");
  assert.deepEqual(
    out.slice(-5),
    [...turn(4, 2000), { role: "user", text: "next question" }],
    "the previous turn and this one stay verbatim",
  );
  assert.equal(history.length, 16, "the committed history is never changed");
});

it("when eliding is not enough, older turns become one summary written by the model; the view is journaled before use (issue 13)", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const history = Array.from(
    { length: 12 },
    (_, i) =>
      [
        { role: "user", text: `request ${i} ${"y".repeat(300)}` },
        { role: "assistant", text: `answer ${i} ${"z".repeat(300)}`, toolCalls: [] },
      ] as AgentMessage[],
  ).flat();
  const condenser = new ContextCondenser(model, { save: async (r) => void saved.push(r) });
  const out = await condenser.fit(fitInput(history));
  assert.equal(saved.length, 1);
  const view = saved[0]!.view;
  assert.equal(view.replacedCount, 22, "everything before the previous turn is summarised");
  assert.match(view.summary ?? "", /^SUMMARY: asked for files/);
  assert.match((out[1] as { text: string }).text, /^\[Summary of the 22 earlier messages of this conversation, condensed by Hearth/);
  assert.deepEqual(out.slice(2), [...history.slice(22), { role: "user", text: "next question" }]);
  assert.deepEqual(condenser.current(), view);
  // A transcript too long for one request is folded in chunk by chunk, each request within the context.
  const summaries = model.requests.map((r) => (r.messages[1] as { text: string }).text);
  assert.ok(summaries.length >= 2, `${summaries.length} summary requests`);
  assert.match(summaries[0]!, /^Conversation to add to the summary:\nuser: request 0 /);
  assert.match(summaries.at(-1)!, /^Summary so far:\nSUMMARY: asked for files.*assistant: answer 10 /s);
  assert.ok(model.requests.every((r) => r.tools.length === 0 && tokens(r.messages) + 100 <= CONTEXT));
});

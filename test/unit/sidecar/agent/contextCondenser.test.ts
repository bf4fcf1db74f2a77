// Condensing instead of dying (issue 13, item 3): before a round that would not fit, the biggest,
// oldest tool outputs are elided, then older turns summarised; the system prompt and recent turns stay
// verbatim, the committed history never changes, and every new view is journaled before it is used.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { AgentMessage } from "../../../../sidecar/agent/index.js";
import { ContextCondenser, fits, summarySessionKey } from "../../../../sidecar/agent/contextCondenser.js";
import { MessageTooLongFailure } from "../../../../sidecar/agent/messageTooLong.js";
import type { CondensationRecord } from "../../../../sidecar/agent/ports/context.js";
import type { GenerationRequest, ModelMessage } from "../../../../sidecar/agent/ports/model.js";
import { uuidv7 } from "../../../../shared/ids.js";
import { builder, CounterTool, FnModel } from "../../../support/harnessFixtures.js";

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

/** The conversation lines of one summary request (between the prompt's header and its closing line). */
function transcriptOf(r: GenerationRequest): string[] {
  const text = (r.messages[1] as { text: string }).text;
  const head = "Conversation to add to the summary:\n";
  return text.slice(text.indexOf(head) + head.length, text.lastIndexOf("\n\nWrite the updated summary.")).split("\n");
}

function pairs(n: number): AgentMessage[] {
  return Array.from(
    { length: n },
    (_, i) =>
      [
        { role: "user", text: `request ${i} ${"y".repeat(300)}` },
        { role: "assistant", text: `answer ${i} ${"z".repeat(300)}`, toolCalls: [] },
      ] as AgentMessage[],
  ).flat();
}

it("issue 13, item 5: the summary is written in a model session of its own, tools off, at most 256 tokens at temperature 0, from only the replaced messages; the view is recorded as automatic", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const history = pairs(12);
  const out = await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.equal(saved[0]!.trigger, "automatic");
  const view = saved[0]!.view;
  assert.equal(out[1]!.role, "user", "the summary is shown as a user message");
  assert.ok((out[1] as { text: string }).text.endsWith(`\n${view.summary}`), "with the summary's text");
  const keys = new Set(model.requests.map((r) => r.sessionKey));
  assert.equal(keys.size, 1);
  const [key] = keys;
  assert.ok(typeof key === "string" && key.length > 0 && key !== "s", `summary session ${JSON.stringify(key)}`);
  assert.notEqual(summarySessionKey("a"), summarySessionKey("b"), "each conversation has its own summary session");
  for (const r of model.requests) {
    assert.deepEqual(
      r.messages.map((m) => m.role),
      ["system", "user"],
    );
    assert.ok((r.messages[0] as { text: string }).text.length > 0, "the summary instructions");
    assert.deepEqual(r.options, { maxTokens: 256, temperature: 0 });
  }
  // Every replaced message is summarised once, in order; the verbatim turns are not.
  const expected = history.slice(0, view.replacedCount).map((m) => `${m.role}: ${(m as { text: string }).text}`);
  assert.deepEqual(model.requests.flatMap(transcriptOf), expected);
});

it("issue 13: when summarising up to the previous turn is not enough, the summary up to the current turn folds in the one just written", async () => {
  const saved: CondensationRecord[] = [];
  let n = 0;
  const model = Object.assign(new FnModel(async () => ({ text: `S${++n}`, reasoning: "", toolCalls: [], stopReason: "end" as const })), {
    measure: countingModel().measure,
  });
  const history: AgentMessage[] = [
    { role: "user", text: `a ${"y".repeat(1200)}` },
    { role: "assistant", text: `A ${"z".repeat(1200)}`, toolCalls: [] },
    { role: "user", text: `b ${"y".repeat(2000)}` },
    { role: "assistant", text: `B ${"z".repeat(2000)}`, toolCalls: [] },
  ];
  const out = await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.equal(model.requests.length, 2, "one summary up to the previous turn, one up to this turn");
  assert.match(transcriptOf(model.requests[0]!)[0]!, /^user: a /);
  assert.match(
    (model.requests[1]!.messages[1] as { text: string }).text,
    /^Summary so far:\nS1\n\nConversation to add to the summary:\nuser: b /,
  );
  assert.deepEqual(saved[0]!.view, { summary: "S2", replacedCount: 4, elidedCallIds: [] });
  assert.equal(out.length, 3);
});

it("issue 13: a view never uncovers what an earlier summary replaced: a later round of the turn that still does not fit summarises nothing again", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const earlier = { summary: "S0", replacedCount: 4, elidedCallIds: [] };
  // The current turn (from 4) has committed a batch whose output alone overflows the context.
  const history: AgentMessage[] = [
    ...turn(1, 100),
    { role: "user", text: "request 2" },
    { role: "assistant", text: "", toolCalls: [{ callId: "c2", name: "read_file", arguments: { path: "f2.txt" } }] },
    { role: "tool", callId: "c2", name: "read_file", ok: true, output: "x".repeat(4000) },
  ];
  const out = await new ContextCondenser(model, { save: async (r) => void saved.push(r) }, earlier).fit({
    ...fitInput(history),
    pending: [],
    turnStart: 4,
  });
  assert.equal(model.requests.length, 0, "nothing is summarised again");
  assert.deepEqual(
    saved.map((r) => r.view),
    [earlier],
  );
  assert.deepEqual(out.slice(2), history.slice(4), "the current turn stays verbatim");
});

it("issue 13: the previous turn's outputs are not elided even when it begins the history; it is summarised when nothing else is left", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const history = turn(1, 4000);
  await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.equal(saved.length, 1);
  assert.deepEqual(saved[0]!.view.elidedCallIds, []);
  assert.equal(saved[0]!.view.replacedCount, 4);
  assert.match(saved[0]!.view.summary ?? "", /^SUMMARY/);
});

it("issue 13: when the model writes no summary (blank text), the user's requests are kept, each chunk's once and in order", async () => {
  const saved: CondensationRecord[] = [];
  const model = Object.assign(new FnModel(async () => ({ text: "  \n ", reasoning: "", toolCalls: [], stopReason: "end" as const })), {
    measure: countingModel().measure,
  });
  const history = pairs(12);
  await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(fitInput(history));
  assert.ok(model.requests.length >= 2, "chunked");
  const view = saved[0]!.view;
  assert.match(view.summary ?? "", /^Earlier requests:\n- request 0 /);
  const requests = (view.summary ?? "").split("\n").filter((l) => l.startsWith("- "));
  const expected = history.slice(0, view.replacedCount).flatMap((m) => (m.role === "user" ? [`- ${m.text.slice(0, 194)}`] : []));
  assert.deepEqual(requests, expected);
});

function compactInput(history: AgentMessage[]) {
  const { pending: _p, turnStart: _t, ...input } = fitInput(history);
  return input;
}

it("issue 13 (session/compact): every turn but the last is condensed on demand, journaled as on_demand with the prompt tokens before and after", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const history = [...turn(1, 100), ...turn(2, 100), ...turn(3, 100)];
  const input = compactInput(history);
  const condenser = new ContextCondenser(model, { save: async (r) => void saved.push(r) });
  const done = await condenser.compact(input);
  assert.equal(saved.length, 1);
  const record = saved[0]!;
  assert.equal(record.trigger, "on_demand");
  assert.equal(record.view.replacedCount, 8, "everything before the last user message");
  assert.match(record.view.summary ?? "", /^SUMMARY/);
  assert.deepEqual(condenser.current(), record.view);
  const full = tokens(input.requestOf([...input.instructions, ...history]).messages);
  assert.equal(record.tokensBefore, full);
  assert.ok(record.tokensAfter > 0 && record.tokensAfter < full, JSON.stringify(record));
  assert.deepEqual(done, { before: record.tokensBefore, after: record.tokensAfter });
  const summarised = model.requests.flatMap(transcriptOf).join("\n");
  assert.match(summarised, /request 1.*request 2/s);
  assert.doesNotMatch(summarised, /request 3/, "the last turn is not summarised");
  // Compacting again finds nothing older than the last turn.
  assert.equal(await condenser.compact(input), null);
  assert.equal(saved.length, 1);
});

it("issue 13 (session/compact): nothing to compact (one turn, no turn, no store) is null and journals nothing", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const store = { save: async (r: CondensationRecord) => void saved.push(r) };
  assert.equal(await new ContextCondenser(model, store).compact(compactInput(turn(1, 100))), null);
  assert.equal(await new ContextCondenser(model, store).compact(compactInput([])), null);
  assert.equal(await new ContextCondenser(model, null).compact(compactInput([...turn(1, 100), ...turn(2, 100)])), null);
  assert.deepEqual(saved, []);
  assert.equal(model.requests.length, 0);
});

it("issue 13 (session/compact): an engine that cannot count still compacts, recording 0 tokens", async () => {
  const saved: CondensationRecord[] = [];
  const model = new FnModel(async () => ({ text: "SUMMARY", reasoning: "", toolCalls: [], stopReason: "end" as const }));
  const done = await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).compact(
    compactInput([...turn(1, 100), ...turn(2, 100)]),
  );
  assert.deepEqual(done, { before: 0, after: 0 });
  assert.deepEqual(saved, [
    { view: { summary: "SUMMARY", replacedCount: 4, elidedCallIds: [] }, trigger: "on_demand", tokensBefore: 0, tokensAfter: 0 },
  ]);
  assert.equal(model.requests.length, 1, "one request, not chunked");
});

it("issue 13: a transcript line that does not fit a summary request even alone is sent alone (the chunking ends)", async () => {
  const saved: CondensationRecord[] = [];
  const model = Object.assign(countingModel(), {
    // Summary requests never fit; the conversation's own prompt is counted as usual.
    measure: async (r: Omit<GenerationRequest, "signal">) => ({
      promptTokens: r.sessionKey === "s" ? tokens(r.messages) : CONTEXT,
      contextSize: CONTEXT,
    }),
  });
  const history = [...turn(1, 100), ...turn(2, 100)];
  await new ContextCondenser(model, { save: async (r) => void saved.push(r) }).compact(compactInput(history));
  assert.deepEqual(
    model.requests.map((r) => transcriptOf(r).length),
    [1, 1, 1, 1],
  );
  assert.equal(saved.length, 1);
});

it("issue 13: a prompt fits when min(maxTokens, context / 4) tokens are left for the answer", () => {
  const at = (promptTokens: number) => ({ promptTokens, contextSize: 1000 });
  assert.equal(fits(at(900), { maxTokens: 100 }), true, "exactly the room for the answer");
  assert.equal(fits(at(901), { maxTokens: 100 }), false);
  assert.equal(fits(at(750), { maxTokens: 500 }), true, "the answer's room is capped at a quarter of the context");
  assert.equal(fits(at(751), { maxTokens: 500 }), false);
  assert.equal(fits(at(750), {}), true, "no maxTokens: 1024, capped likewise");
  assert.equal(fits(at(751), {}), false);
});

/** A session over `history` whose every prompt with history is too big, so its first round condenses; `summary` answers the summary request. */
const ids: Record<string, string> = { c1: uuidv7(), c2: uuidv7(), c3: uuidv7() };

function overfullSession(summary: (signal: AbortSignal) => Promise<string>, measure?: () => Promise<never>) {
  const model = Object.assign(
    new FnModel(async (req) => {
      if (req.sessionKey.endsWith("\u0000summary"))
        return { text: await summary(req.signal), reasoning: "", toolCalls: [], stopReason: "end" };
      return { text: "answer", reasoning: "", toolCalls: [], stopReason: "end" };
    }),
    // Too big with the history; the message alone (instructions and one user message) fits.
    {
      measure:
        measure ??
        (async (r: Omit<GenerationRequest, "signal">) => ({
          promptTokens: r.messages.length > 2 ? CONTEXT * 2 : 10,
          contextSize: CONTEXT,
        })),
    },
  );
  const history = [...turn(1, 100), ...turn(2, 100), ...turn(3, 100)].map((m) =>
    m.role === "tool"
      ? { ...m, callId: ids[m.callId]! }
      : m.role === "assistant"
        ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, callId: ids[c.callId]! })) }
        : m,
  );
  return builder(model, [new CounterTool({ name: "read_file", effectClass: "read" })])
    .builder.history(history)
    .condensationStore({ save: async () => undefined })
    .build();
}

it("cancelling while the summary is written ends the turn `cancelled`, not as an internal failure (issue 23 item 8; harness #10)", async () => {
  const controller = new AbortController();
  const session = overfullSession(
    (signal) =>
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(new Error("generation aborted")), { once: true });
        controller.abort();
      }),
  );
  const out = await session.runTurn("next question", { signal: controller.signal });
  assert.equal(out.status, "cancelled", out.status === "completed" ? "" : out.failure.message);
  assert.equal(out.status === "cancelled" && out.failure.kind, "cancelled");
});

it("a model whose measure fails fails the turn as a model failure, saying what failed (issue 23 item 8)", async () => {
  const session = overfullSession(
    async () => "unused",
    async () => {
      throw new Error("tokenizer gone");
    },
  );
  const out = await session.runTurn("next question");
  assert.equal(out.status, "failed");
  assert.equal(out.status === "failed" && out.failure.kind, "model_failed", out.status === "failed" ? out.failure.message : "");
  assert.match(out.status === "failed" ? out.failure.message : "", /tokenizer gone/);
});

it("a message that cannot fit even alone is refused with its tokens and the room a message has, before anything is condensed or summarised (issue 25 item 8)", async () => {
  const saved: CondensationRecord[] = [];
  const model = countingModel();
  const input = { ...fitInput([...turn(1, 600), ...turn(2, 600)]), pending: [{ role: "user" as const, text: "y".repeat(8000) }] };
  await assert.rejects(new ContextCondenser(model, { save: async (r) => void saved.push(r) }).fit(input), (e: unknown) => {
    assert.ok(e instanceof MessageTooLongFailure, String(e));
    // 4 characters a token and 4 a message; the instructions take 8, the answer keeps 100 of 1,000.
    assert.deepEqual(e.tooLong, { messageTokens: 2000, roomTokens: 1000 - 100 - 8 - 4, contextSize: CONTEXT });
    assert.match(e.message, /^refused: the message is 2,000 tokens, and a message may take 888 of the 1,000 tokens/);
    return true;
  });
  assert.deepEqual(saved, [], "nothing condensed for a message that could not fit anyway");
  assert.equal(model.requests.length, 0, "no summary written");
});

it("a later round of a turn that does not fit is condensed as before, not refused as a long message (issue 25 item 8)", async () => {
  const saved: CondensationRecord[] = [];
  const history = [...turn(1, 2000), ...turn(2, 2000), { role: "user" as const, text: "y".repeat(3000) }];
  const input = { ...fitInput(history), turnStart: history.length - 1, pending: [] };
  await new ContextCondenser(countingModel(), { save: async (r) => void saved.push(r) }).fit(input);
  assert.equal(saved.length, 1);
});

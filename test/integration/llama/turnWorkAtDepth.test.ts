// A turn deep in a conversation costs what is new in it (issue 32): the work a round does outside
// native evaluation must not grow with the number of earlier turns. Counted, not timed (a shared
// machine's clock is noise): the characters and calls that reach llama.cpp's tokenizer per turn, on
// the real adapter with the fixture chat model, the way the kernel calls it (the condenser's measure,
// then the round).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel, resolveChatWrapper } from "node-llama-cpp";
import type { ModelMessage } from "../../../sidecar/agent/ports/model.js";
import { LlamaAgentModel } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import { toChatHistory } from "../../../sidecar/inference/llama/chatHistory.js";
import type { LoadedLlama } from "../../../sidecar/inference/llama/llamaRuntime.js";
import { TokenizeMemo } from "../../../sidecar/inference/llama/tokenizeMemo.js";
import { ensureFixtureModels } from "../../fixtures/models.js";

const TURNS = 40;
let agent: LlamaAgentModel;
/** What reached the native tokenizer (llama.cpp's, under node-llama-cpp's LlamaModel): the ground truth. */
const native = { calls: 0, chars: 0 };
let plainLlama: Llama;
let plain: LlamaModel;

before(async () => {
  const modelPath = ensureFixtureModels().chat;
  agent = await LlamaAgentModel.load({ modelPath, threads: 1, contextSize: 8192, maxSessions: 1, gpu: false });
  // The addon object under the adapter's model: every tokenization ends in its `tokenize`, memo or not.
  const addon = (agent as unknown as { loaded: LoadedLlama }).loaded.model as unknown as {
    _model: { tokenize(text: string, special: boolean): Uint32Array };
  };
  const tokenize = addon._model.tokenize.bind(addon._model);
  Object.defineProperty(addon._model, "tokenize", {
    value: (text: string, special: boolean) => {
      native.calls++;
      native.chars += text.length;
      return tokenize(text, special);
    },
  });
  // A second model of the same file with node-llama-cpp's own tokenizer: what the tokens must equal.
  plainLlama = await getLlama({ build: "never", gpu: false, maxThreads: 1, logLevel: LlamaLogLevel.error });
  plain = await plainLlama.loadModel({ modelPath });
});
after(async () => {
  await agent?.dispose();
  await plain?.dispose();
  await plainLlama?.dispose();
});

const words = "the parser reads one line at a time and keeps its state between calls so nothing is lost".split(" ");
const message = (turn: number) => Array.from({ length: 40 }, (_, i) => words[(turn * 7 + i * 3) % words.length]).join(" ");
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;

test("a turn's tokenizer work is its new messages, not the history: flat from turn 3 to turn 40 (issue 32)", async () => {
  const messages: ModelMessage[] = [{ role: "system", text: `You are a careful coding assistant. ${message(0).repeat(4)}` }];
  const perTurn: { calls: number; chars: number; historyChars: number }[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    messages.push({ role: "user", text: message(turn) });
    const request = { sessionKey: "deep", messages, tools: [], options: { maxTokens: 6, temperature: 0 } };
    const before = { ...native };
    await agent.measure(request); // the condenser measures before every round (contextCondenser.ts)
    const round = await agent.generate({ ...request, signal: new AbortController().signal }, () => undefined);
    perTurn.push({
      calls: native.calls - before.calls,
      chars: native.chars - before.chars,
      historyChars: messages.reduce((a, m) => a + ("text" in m ? m.text.length : 0), 0),
    });
    messages.push({ role: "assistant", text: round.text, reasoning: "", toolCalls: [] });
  }
  const early = perTurn.slice(2, 12);
  const late = perTurn.slice(-10);
  const last = perTurn.at(-1)!;
  // The new user message is ~250 characters and the last answer a few tokens: that and the answer's
  // own bookkeeping is all a turn may send to the tokenizer, at turn 3 as at turn 40.
  assert.ok(
    median(late.map((t) => t.chars)) <= median(early.map((t) => t.chars)) * 1.2,
    `tokenized characters grow with depth: ${JSON.stringify(perTurn.map((t) => t.chars))}`,
  );
  assert.ok(
    median(late.map((t) => t.calls)) <= median(early.map((t) => t.calls)) * 1.2,
    `tokenizer calls grow with depth: ${JSON.stringify(perTurn.map((t) => t.calls))}`,
  );
  assert.ok(last.chars < last.historyChars / 4, `turn ${TURNS} re-tokenized its history: ${last.chars} of ${last.historyChars} characters`);
});

test("remembered tokens are exactly node-llama-cpp's own tokenization of the whole prompt (issue 32)", () => {
  const messages: ModelMessage[] = [{ role: "system", text: "be brief" }];
  for (let turn = 1; turn <= 12; turn++) {
    messages.push({ role: "user", text: message(turn) });
    messages.push({ role: "assistant", text: `answer ${turn}: ${message(turn + 50).slice(0, 80)}`, reasoning: "", toolCalls: [] });
  }
  messages.push({ role: "user", text: message(99) });
  const history = [...toChatHistory(messages), { type: "model" as const, response: [] }];
  // Twice through the adapter (the second answered from the memo), once through a model without one.
  const first = agent.renderPrompt(history, undefined);
  const again = agent.renderPrompt(history, undefined);
  const { contextText } = resolveChatWrapper(plain).generateContextState({ chatHistory: history, documentFunctionParams: true });
  const expected = contextText.tokenize(plain.tokenizer);
  assert.deepEqual(first, expected);
  assert.deepEqual(again, expected);
});

test("the memo is bounded: past its budget the least recently used piece is tokenized again (issue 32)", () => {
  const memo = TokenizeMemo.install(plain, 700);
  const piece = (c: string) => c.repeat(300);
  const [a, b, c] = [piece("a"), piece("b"), piece("c")];
  const tokensOfA = plain.tokenize(a);
  plain.tokenize(b);
  plain.tokenize(a); // a is now the most recently used
  assert.equal(memo.work.nativeCalls, 2);
  plain.tokenize(c); // over 700 characters: b, the least recently used, goes
  plain.tokenize(a);
  assert.equal(memo.work.nativeCalls, 3, "a stayed remembered");
  plain.tokenize(b);
  assert.equal(memo.work.nativeCalls, 4, "b was evicted and tokenized again");
  // A caller that changes the tokens it got back does not change what the memo answers next.
  const mine = plain.tokenize(a);
  mine.length = 0;
  assert.deepEqual(plain.tokenize(a), tokensOfA);
});

// Fill-in-the-middle on the loaded model (issue 31), real node-llama-cpp on the synthetic FIM model:
// the middle between a prefix and a suffix, a completion's KV cache reused by the next keystroke's, a
// cancel answered at once with the next completion still served (harness #18), the reuse kept with the
// ring's chunks before the prefix, chats on the same
// model undisturbed, and a model without FIM tokens refused with what to do.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GenerationRequest } from "../../../sidecar/agent/ports/model.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { COMPLETION_SESSION } from "../../../sidecar/inference/llama/infill.js";
import { llamaModelForFile } from "../../support/llamaModel.js";

const fim = llamaModelForFile((paths) => ({
  modelPath: paths.fim,
  threads: 1,
  contextSize: 2048,
  maxSessions: 2,
  batchSize: 64,
  stateStore: null,
}));
const chat = llamaModelForFile((paths) => ({
  modelPath: paths.chat,
  threads: 1,
  contextSize: 512,
  maxSessions: 1,
  batchSize: 32,
  stateStore: null,
}));

const body = Array.from({ length: 40 }, (_, i) => `const value${i} = compute(${i}, "item ${i}");`).join("\n");
const prefix = `${body}\nfunction add(a: number, b: number): number {\n  `;
const suffix = "\n}\n";
const infill = (p: string, signal = new AbortController().signal) => fim.model.infill({ prefix: p, suffix, maxTokens: 16, signal });

describe("fill-in-the-middle completions", { timeout: 120_000 }, () => {
  it("writes the middle between the prefix and the suffix", async () => {
    assert.equal(fim.model.infillSupported, true);
    const r = await infill(prefix);
    assert.equal(r.text, FIM_MODEL_MIDDLE);
    assert.ok(r.generatedTokens > 0);
  });

  it("reuses the previous completion's cache: the next keystroke evaluates only what follows its change", async () => {
    await infill(`${prefix}// a`);
    const next = await infill(`${prefix}// ad`);
    assert.ok(next.reusedTokens > 100, `the next one kept the shared prefix: ${JSON.stringify(next)}`);
    assert.ok(next.evaluatedTokens < next.reusedTokens / 4, `and evaluated only the tokens after the change: ${JSON.stringify(next)}`);
  });

  it("reuses at least 90% of the prompt's tokens between keystrokes typing at the end of a line", async () => {
    // Invariant: the changing part of the prompt (the cursor's line) goes last, so a keystroke evaluates
    // only that line's tokens, not the suffix again (the layout that let node-llama-cpp re-evaluate it).
    const typed = "const total = add(value1, value2);";
    await infill(prefix);
    let reused = 0;
    let evaluated = 0;
    for (let i = 1; i <= typed.length; i += 1) {
      const r = await infill(prefix + typed.slice(0, i));
      reused += r.reusedTokens;
      evaluated += r.evaluatedTokens;
    }
    const share = reused / (reused + evaluated);
    assert.ok(share >= 0.9, `reused ${reused} of ${reused + evaluated} prompt tokens (${(share * 100).toFixed(1)}%)`);
  });

  it("still reuses at least 90% between keystrokes with the ring's chunks of other files before the prefix", async () => {
    // Invariant: the chunks come first and stay put while a person types, so their tokens are reused too.
    // A full ring, more than the context's room: the newest chunks that fit fill it, so the prompt comes
    // within a few tokens of the context size (where node-llama-cpp would cut its head at each keystroke).
    const chunks = Array.from({ length: 16 }, (_, f) => ({
      filename: `src/other${f}.ts`,
      text: `${Array.from({ length: 8 }, (_, i) => `export const other${f}_${i} = ${i};`).join("\n")}\n`,
    }));
    const withChunks = (p: string) => fim.model.infill({ prefix: p, suffix, chunks, maxTokens: 16, signal: new AbortController().signal });
    const typed = "const total = add(value1, value2);";
    const first = await withChunks(prefix);
    const alone = await infill(prefix);
    const chunkTokens = first.reusedTokens + first.evaluatedTokens - (alone.reusedTokens + alone.evaluatedTokens);
    assert.ok(chunkTokens > 100, `the chunks are in the prompt: ${chunkTokens} tokens more than the window alone`);
    await withChunks(prefix);
    let reused = 0;
    let evaluated = 0;
    for (let i = 1; i <= typed.length; i += 1) {
      const r = await withChunks(prefix + typed.slice(0, i));
      reused += r.reusedTokens;
      evaluated += r.evaluatedTokens;
    }
    const share = reused / (reused + evaluated);
    assert.ok(share >= 0.9, `reused ${reused} of ${reused + evaluated} prompt tokens (${(share * 100).toFixed(1)}%)`);
    assert.ok(first.reusedTokens + first.evaluatedTokens > 0.9 * 2048, `the prompt fills the context: ${JSON.stringify(first)}`);
  });

  it("answers a cancel at once, and the next completion is served (harness #18)", async () => {
    const abort = new AbortController();
    const cancelled = infill(`${prefix}/* long */`, abort.signal);
    abort.abort(new Error("typed on"));
    await assert.rejects(cancelled, /typed on/);
    assert.equal((await infill(prefix)).text, FIM_MODEL_MIDDLE);
  });

  it("answers the cancel of a completion waiting behind a cancelled one's native work at once, not when that work ends", async () => {
    // A fresh ~1,800-token window: its evaluation goes on after its cancel, holding the completions' session.
    const long = `${Array.from({ length: 90 }, (_, i) => `let fresh${i} = ${i};`).join("\n")}\n${prefix}`;
    const first = new AbortController();
    const inFlight = infill(long, first.signal);
    first.abort();
    await assert.rejects(inFlight);
    let sessionFree = false;
    void fim.model.settled(COMPLETION_SESSION).then(() => {
      sessionFree = true;
    });
    const next = new AbortController();
    const queued = infill(`${long}// x`, next.signal);
    next.abort();
    await assert.rejects(queued);
    // Invariant: a keystroke's cancel is answered before the native work it waited behind has ended.
    assert.equal(sessionFree, false, "the queued completion answered its cancel while the first one's evaluation still ran");
    await fim.model.settled(COMPLETION_SESSION);
    assert.equal((await infill(prefix)).text, FIM_MODEL_MIDDLE, "and the next completion is served");
  });

  it("shares the model with a chat turn: both are served, the chat's answer unchanged", async () => {
    const request: GenerationRequest = {
      sessionKey: "chat-beside-completions",
      messages: [{ role: "user", text: "hello" }],
      tools: [],
      options: { maxTokens: 12 },
      signal: new AbortController().signal,
    };
    const alone = await fim.model.generate({ ...request, sessionKey: "chat-alone" }, () => undefined);
    const [together, completed] = await Promise.all([fim.model.generate(request, () => undefined), infill(prefix)]);
    assert.equal(together.text, alone.text);
    assert.equal(completed.text, FIM_MODEL_MIDDLE);
  });

  it("refuses a model without fill-in-the-middle tokens, saying what to do", async () => {
    assert.equal(chat.model.infillSupported, false);
    await assert.rejects(
      chat.model.infill({ prefix: "a", suffix: "b", maxTokens: 4, signal: new AbortController().signal }),
      (e: unknown) =>
        e instanceof HearthError && e.code === ErrorCode.Refused && /no fill-in-the-middle tokens.*choose a code model/.test(e.message),
    );
  });
});

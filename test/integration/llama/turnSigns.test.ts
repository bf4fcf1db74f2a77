// What a turn's events tell the view, from real node-llama-cpp rounds on the synthetic models through
// the whole kernel: an answer that reached the token cap says so (issue 25, item 10), and a tool call
// shows as soon as the model begins writing it, before its arguments are done (issue 25, item 4).
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { COPY_MODEL_ANSWER, ensureFixtureModels, TOOL_MODEL_ANSWER } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

async function kernelWith(tools: string) {
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_TOOLS: tools } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  return k;
}

it("the completed event of an answer cut at the token cap carries stoppedAtTokenCap; a finished one does not (issue 25, item 10)", async () => {
  const models = ensureFixtureModels();
  const k = await kernelWith("none");
  const driver = new TurnDriver(k.client, () => ({ decision: "deny", reason: "no tools in this test" }));
  const turn = async (maxTokens: number) => {
    const { sessionId } = await k.client.request("session/create", { model: models.copy, options: { maxTokens } });
    const { turnId } = await k.client.request("turn/start", { sessionId, message: "Spell the alphabet." });
    return { done: await driver.completion(turnId), text: driver.answerText(turnId) };
  };
  const cut = await turn(4);
  assert.equal(cut.done.status, "completed", JSON.stringify(cut.done));
  assert.equal(cut.done.stoppedAtTokenCap, true, "the answer stopped at the cap");
  assert.ok(cut.text.length > 0 && COPY_MODEL_ANSWER.startsWith(cut.text.trim()), `a prefix of the answer: ${cut.text}`);

  const whole = await turn(512);
  assert.equal(whole.done.status, "completed", JSON.stringify(whole.done));
  assert.equal(whole.done.stoppedAtTokenCap, undefined, "a finished answer is not flagged");
  assert.equal(whole.text.trim(), COPY_MODEL_ANSWER);
});

it("a tool call shows as tool_call_started (its name), then the length of its arguments as they are written, before the ledger holds it (issue 25, item 4)", async () => {
  const models = ensureFixtureModels();
  const k = await kernelWith("list_dir");
  const driver = new TurnDriver(k.client);
  const { sessionId } = await k.client.request("session/create", { model: models.tool, options: { maxTokens: 64 } });
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "Look around the workspace, please." });
  assert.equal((await driver.completion(turnId)).status, "completed");
  assert.ok(driver.answerText(turnId).endsWith(TOOL_MODEL_ANSWER));
  const events = driver.events.get(turnId)!;
  const started = events.findIndex((e) => e.type === "tool_call_started");
  const call = events.findIndex((e) => e.type === "tool_call");
  assert.ok(call >= 0, `the model called no tool: ${JSON.stringify(events)}`);
  assert.ok(started >= 0 && started < call, `the start comes first: ${JSON.stringify(events.map((e) => e.type))}`);
  assert.deepEqual(events[started], { type: "tool_call_started", index: 0, name: "list_dir" });
  // The card counts the tokens the model spends on the call: its arguments' pieces, between start and call.
  const args = events.flatMap((e, i) => (e.type === "tool_call_args" && e.index === 0 ? [{ i, chars: e.chars }] : []));
  assert.ok(args.length > 0, `no argument pieces: ${JSON.stringify(events.map((e) => e.type))}`);
  assert.ok(
    args.every(({ i, chars }) => i > started && i < call && chars > 0),
    JSON.stringify(events.map((e) => e.type)),
  );
  const made = events[call] as Extract<(typeof events)[number], { type: "tool_call" }>;
  const written = args.reduce((n, a) => n + a.chars, 0);
  assert.ok(written >= JSON.stringify(made.call.arguments).length, `${written} characters for ${JSON.stringify(made.call.arguments)}`);
  const history = await k.client.request("session/history", { sessionId });
  assert.ok(
    history.messages.every((m) => !/tool_call_(started|args)/.test(JSON.stringify(m))),
    "presentation only: never in the history (harness #18)",
  );
});

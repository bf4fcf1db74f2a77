// A message too long for the model's context (issue 25 item 8, the 200 KB paste sent anyway) is
// refused with typed numbers the chat can say in plain words, without condensing the earlier turns for
// nothing, and it never strands the chat: the next message, and the next kernel over the same journal,
// go on from before it.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { restartableKernelOptions, startTestKernel, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

const CONTEXT_SIZE = 4096;

it("a message too long for the context is refused with its tokens and the room a message has, condenses nothing, and the chat goes on without it, also after a restart (issue 25 item 8)", async () => {
  const models = ensureFixtureModels();
  const shared = restartableKernelOptions("too-long", {
    HEARTH_THREADS: "1",
    HEARTH_TOOLS: "read_file",
    HEARTH_CONTEXT_SIZE: String(CONTEXT_SIZE),
  });
  const first = startTestKernel(shared);
  kernels.push(first);
  await first.client.initialize("test", "0");
  let driver = new TurnDriver(first.client);
  const { sessionId } = await first.client.request("session/create", { model: models.copy, options: { maxTokens: 32 } });
  const one = await first.client.request("turn/start", { sessionId, message: "Say the alphabet." });
  assert.equal((await driver.completion(one.turnId)).status, "completed");

  const pasted = `Summarize this log\n\n\`\`\`\n${"2026-12-01 21:00:00 [info] a line of a long log that someone pasted\n".repeat(600)}\`\`\``;
  const refused = await first.client.request("turn/start", { sessionId, message: pasted });
  const done = await driver.completion(refused.turnId);
  assert.equal(done.status, "failed");
  const tooLong = done.tooLong;
  assert.ok(tooLong, `the failure says the message is too long, with numbers: ${JSON.stringify(done)}`);
  assert.equal(tooLong.contextSize, CONTEXT_SIZE);
  assert.ok(tooLong.messageTokens > CONTEXT_SIZE, JSON.stringify(tooLong));
  assert.ok(tooLong.roomTokens > 0 && tooLong.roomTokens < CONTEXT_SIZE, JSON.stringify(tooLong));
  // What, why and what to do, without the harness's internals (a "model_failed:" kind, "compact the session").
  assert.match(done.error?.message ?? "", /^refused: the message is [\d,]+ tokens.*shorten it/);
  assert.doesNotMatch(done.error?.message ?? "", /model_failed|compact/);

  let history = await first.client.request("session/history", { sessionId });
  assert.deepEqual(history.condensations, [], "the earlier turn was not condensed for a message that could not fit anyway");
  // The message stays in the chat (nothing typed is lost) with its run's ending.
  assert.equal(history.messages.filter((m) => m.role === "user").length, 2);
  assert.equal(history.runs.at(-1)?.ending?.tooLong?.messageTokens, tooLong.messageTokens, "a reloaded view can say it again");

  const next = await first.client.request("turn/start", { sessionId, message: "And again?" });
  assert.equal((await driver.completion(next.turnId)).status, "completed", "the next message is not refused");

  await first.client.request("kernel/shutdown", undefined);
  await first.exited;
  const second = startTestKernel(shared);
  kernels.push(second);
  await second.client.initialize("test", "0");
  driver = new TurnDriver(second.client);
  const resumed = await second.client.request("turn/start", { sessionId, message: "Once more?" });
  assert.equal(
    (await driver.completion(resumed.turnId)).status,
    "completed",
    "a kernel that rebuilds the chat leaves the refused message out",
  );
  history = await second.client.request("session/history", { sessionId });
  assert.deepEqual(history.condensations, []);
});

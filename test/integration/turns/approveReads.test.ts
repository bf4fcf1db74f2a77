// HEARTH_APPROVE_READS=1 (the hearth.tools.readsNeedApproval setting): a read asks the person
// first, and a denied read does not run; without it reads ask no one (issue 10 item 5; harness #8).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("with reads needing approval, read_file asks and a denied read returns no content (issue 10 item 5)", async () => {
  const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_APPROVE_READS: "1" } });
  kernels.push(k);
  fs.writeFileSync(path.join(k.workspace, "secret.txt"), "the secret\n");
  const file = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      rounds: [{ toolCalls: [{ name: "read_file", arguments: { path: "secret.txt" } }] }, { text: ["I was not allowed to read it."] }],
    }),
  );
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client);
  const { sessionId } = await k.client.request("session/create", { model: `scripted:${file}` });
  const { turnId } = await k.client.request("turn/start", { sessionId, message: "read secret.txt" });
  assert.equal((await driver.completion(turnId)).status, "completed");
  assert.deepEqual(
    driver.approvals.map((a) => [a.call.name, a.effectClass]),
    [["read_file", "read"]],
  );
  const result = (await k.client.request("session/history", { sessionId })).messages.find((m) => m.role === "tool") as Extract<
    HistoryMessage,
    { role: "tool" }
  >;
  assert.equal(result.ok, false);
  assert.doesNotMatch(result.output, /the secret/);
});

// "Apply to file" on a chat code block (issue 15) through a real kernel: turn/apply proposes
// write_file(path, block) for approval like a model's call; the kernel writes only after approve,
// writes nothing after deny, refuses a path outside the workspace, and the turn is undoable.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { applyMessage } from "../../../shared/applyMessage.js";
import { startTestKernel, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("turn/apply asks approval with the write's diff; approve writes exactly the block, deny writes nothing, ../ is refused (issue 15)", async () => {
  const k = startTestKernel();
  kernels.push(k);
  await k.client.initialize("test", "0");
  fs.writeFileSync(path.join(k.workspace, "a.ts"), "old\n");
  // The session's model is never loaded: the apply turn's proposer is the kernel's, not a model.
  const { sessionId } = await k.client.request("session/create", { title: "apply", model: "scripted:/nonexistent.json" });
  let decision: "approve" | "deny" = "approve";
  const driver = new TurnDriver(k.client, () => ({
    decision,
    reason: decision === "approve" ? "accepted by the test" : "the test said no",
  }));

  const applied = await k.client.request("turn/apply", { sessionId, path: "a.ts", content: "export const a = 1;\n" });
  assert.equal((await driver.completion(applied.turnId)).status, "completed");
  assert.equal(driver.approvals.length, 1, "one approval request, as for a model's write_file");
  const req = driver.approvals[0]!;
  assert.equal(req.call.name, "write_file");
  assert.equal(req.preview.kind, "diff");
  assert.equal(fs.readFileSync(path.join(k.workspace, "a.ts"), "utf8"), "export const a = 1;\n", "approved: the file is the block");
  assert.match(driver.answerText(applied.turnId), /^Applied to a\.ts: /);

  decision = "deny";
  const denied = await k.client.request("turn/apply", { sessionId, path: "a.ts", content: "nope\n" });
  await driver.completion(denied.turnId);
  assert.equal(fs.readFileSync(path.join(k.workspace, "a.ts"), "utf8"), "export const a = 1;\n", "denied: nothing written");
  assert.match(driver.answerText(denied.turnId), /^Not applied to a\.ts: denied/);

  decision = "approve";
  const outside = await k.client.request("turn/apply", { sessionId, path: "../escape.ts", content: "x\n" });
  await driver.completion(outside.turnId);
  assert.equal(fs.existsSync(path.join(k.workspace, "..", "escape.ts")), false, "nothing outside the workspace");
  assert.match(driver.answerText(outside.turnId), /^Not applied to \.\.\/escape\.ts: refused/);

  const history = await k.client.request("session/history", { sessionId });
  assert.equal(history.messages.filter((m) => m.role === "user")[0]!.text, applyMessage("a.ts"), "the person's action is journaled");
  const { turns } = await k.client.request("turn/edits", { sessionId });
  assert.deepEqual(
    turns.map((t) => t.turnId),
    [applied.turnId],
    "the applied write is undoable like any turn's",
  );
});

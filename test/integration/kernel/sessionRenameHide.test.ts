// The chat view's history list (issue 15) through a real kernel: rename changes the title and not
// the list's order; hide (the view's Delete) leaves a session out of session/list while the journal
// keeps it whole (its history still loads, across a restart).
import assert from "node:assert/strict";
import path from "node:path";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("session/rename retitles without reordering; session/hide removes from session/list only, the journal keeps the chat (issue 15)", async () => {
  const root = tempDir("sessions");
  const shared = {
    workspace: path.join(root, "ws"),
    journalPath: path.join(root, "journal.sqlite"),
    env: { HEARTH_HOME: path.join(root, "home") },
  };
  let k = startTestKernel(shared);
  kernels.push(k);
  await k.client.initialize("test", "0");
  const a = (await k.client.request("session/create", { title: "first chat", model: "scripted:none" })).sessionId;
  const b = (await k.client.request("session/create", { title: "second chat", model: "scripted:none" })).sessionId;
  const ids = async (): Promise<string[]> => (await k.client.request("session/list", {})).sessions.map((s) => s.sessionId);
  assert.deepEqual(await ids(), [b, a]);

  const renamed = await k.client.request("session/rename", { sessionId: a, title: "  Fix the parser  " });
  assert.equal(renamed.session.title, "Fix the parser", "the title is trimmed");
  assert.deepEqual(await ids(), [b, a], "renaming does not move a chat to the top");
  await assert.rejects(k.client.request("session/rename", { sessionId: a, title: "   " }), "an empty title is refused");

  assert.deepEqual(await k.client.request("session/hide", { sessionId: b }), { sessionId: b, hidden: true });
  assert.deepEqual(await ids(), [a]);
  assert.equal(
    (await k.client.request("session/history", { sessionId: b })).session.title,
    "second chat",
    "a hidden chat stays in the journal",
  );

  await k.client.request("kernel/shutdown", undefined);
  await k.exited;
  k = startTestKernel(shared);
  kernels.push(k);
  await k.client.initialize("test", "0");
  assert.deepEqual(await ids(), [a], "hidden survives a restart");
  assert.equal((await k.client.request("session/list", {})).sessions[0]!.title, "Fix the parser");
  await assert.rejects(k.client.request("session/hide", { sessionId: "no-such-session" }), /session/i);
});

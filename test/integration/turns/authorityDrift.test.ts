// harness #19: a session resumed under different tool authority fails closed, with a message that
// says what drifted and what to do; under the same authority it resumes.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

it("a resume under a narrower tool ceiling is refused; the same ceiling resumes (harness #19)", async () => {
  const root = tempDir("drift");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const scriptFile = path.join(root, "script.json");
  fs.writeFileSync(scriptFile, JSON.stringify({ rounds: [{ text: ["one"] }, { text: ["two"] }, { text: ["three"] }] }));
  const base = { workspace, journalPath: path.join(root, "journal.sqlite") };
  const turn = async (env: Record<string, string>, sessionId?: string) => {
    const k = startTestKernel({ ...base, env: { HEARTH_ALLOW_SCRIPTED: "1", ...env } });
    try {
      await k.client.initialize("test", "0");
      const driver = new TurnDriver(k.client);
      const id = sessionId ?? (await k.client.request("session/create", { model: `scripted:${scriptFile}` })).sessionId;
      const { turnId } = await k.client.request("turn/start", { sessionId: id, message: "go" });
      return { sessionId: id, done: await driver.completion(turnId) };
    } finally {
      await k.stop();
    }
  };
  const first = await turn({ HEARTH_TOOLS: "read_file,list_dir" });
  assert.equal(first.done.status, "completed");
  const drifted = await turn({ HEARTH_TOOLS: "read_file" }, first.sessionId);
  assert.equal(drifted.done.status, "failed");
  assert.match(drifted.done.error!.message, /refused to resume: the session's authority drifted \(tools.*start a new session/);
  const same = await turn({ HEARTH_TOOLS: "read_file,list_dir" }, first.sessionId);
  assert.equal(same.done.status, "completed");
});

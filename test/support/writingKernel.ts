// A kernel process whose scripted model plays a script of rounds over a workspace seeded with files,
// every approval answered yes: the undo and rewind tests drive real writes through it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startTestKernel, tempDir, type TestKernel } from "./kernelProcess.js";
import { TurnDriver } from "./turnDriver.js";

export type Round = {
  text?: string[];
  delayMs?: number;
  expectUsers?: string[];
  error?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};

/** Starts the kernel (pushed on `kernels` for the file's `after` to stop), seeds `files`, creates a session on `rounds`. */
export async function kernelWith(kernels: TestKernel[], rounds: Round[], files: Record<string, string | Buffer>) {
  const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1" } });
  kernels.push(k);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(k.workspace, name)), { recursive: true });
    fs.writeFileSync(path.join(k.workspace, name), content);
  }
  const script = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client, () => ({ decision: "approve", reason: "approved by the test" }));
  const { sessionId } = await k.client.request("session/create", { model: `scripted:${script}` });
  const turn = async (message: string) => {
    const { turnId } = await k.client.request("turn/start", { sessionId, message });
    const done = await driver.completion(turnId);
    assert.equal(done.status, "completed", JSON.stringify(done));
    return turnId;
  };
  const read = (name: string) => fs.readFileSync(path.join(k.workspace, name));
  const exists = (name: string) => fs.existsSync(path.join(k.workspace, name));
  return { k, sessionId, driver, turn, read, exists };
}

export const write = (p: string, content: string) => ({ name: "write_file", arguments: { path: p, content } });
export const edit = (p: string, oldText: string, newText: string) => ({ name: "edit_file", arguments: { path: p, oldText, newText } });

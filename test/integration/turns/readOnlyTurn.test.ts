// A client whose folder is untrusted (VS Code's Restricted Mode) asks for read-only turns: the model
// is offered read_file, list_dir and search_files only, a write it calls anyway is refused by the
// execution gate (nothing written, nobody asked), and the next trusted turn of the same session is
// offered every tool again without a new session (issue 10, item 6; harness #5: the active set
// narrows inside the pinned ceiling).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import type { HistoryMessage } from "../../../shared/protocol/index.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const READ_ONLY = ["list_dir", "read_file", "search_files"];
const ALL = [...READ_ONLY, "edit_file", "shell", "write_file"];

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("a read-only turn offers only read tools and refuses a write; the next trusted turn offers all (issue 10 item 6)", async () => {
  const k = startTestKernel({ env: { HEARTH_ALLOW_SCRIPTED: "1" } });
  kernels.push(k);
  const file = path.join(tempDir("script"), "script.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      rounds: [
        { expectTools: READ_ONLY, text: ["Writing."], toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] },
        // The refused call is in the transcript now: its definition comes along for replay only.
        { expectTools: [...READ_ONLY, "write_file"], text: ["I may only read here."] },
        { expectTools: ALL, text: ["Now I could write."] },
      ],
    }),
  );
  await k.client.initialize("test", "0");
  const driver = new TurnDriver(k.client);
  const { sessionId } = await k.client.request("session/create", { model: `scripted:${file}` });

  const restricted = await k.client.request("turn/start", { sessionId, message: "write x.txt", readOnly: true });
  const first = await driver.completion(restricted.turnId);
  assert.equal(first.status, "completed", JSON.stringify(first));
  assert.equal(fs.existsSync(path.join(k.workspace, "x.txt")), false, "nothing written in Restricted Mode");
  assert.equal(driver.approvals.length, 0, "a disabled tool never reaches the person");
  const history = await k.client.request("session/history", { sessionId });
  const refusal = history.messages.find((m) => m.role === "tool") as Extract<HistoryMessage, { role: "tool" }>;
  assert.equal(refusal.ok, false);
  assert.match(refusal.output, /write_file/);

  const trusted = await k.client.request("turn/start", { sessionId, message: "and now?" });
  assert.equal(
    (await driver.completion(trusted.turnId)).status,
    "completed",
    "the same session resumes with every tool: no authority drift",
  );
});

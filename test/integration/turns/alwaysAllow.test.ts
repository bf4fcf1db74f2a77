// "Always allow `npm test` in this folder" through a real kernel (issue 27, item 4 done-when): the
// approval request offers the narrowest rule; the person's Always allow runs the call, writes the
// rule to .hearth/rules.json, and the next turn's `npm test` runs without asking while
// `npm test; rm -rf x` still asks. Every decision is journaled: the person's on the card, the rule's
// naming the rule and where it is defined.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

it("Always allow writes the narrowest rule; the next `npm test` runs unasked, `npm test; rm -rf x` still asks (issue 27)", async () => {
  const root = tempDir("always");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(path.join(workspace, "x"), { recursive: true });
  fs.writeFileSync(path.join(workspace, "package.json"), JSON.stringify({ name: "w", scripts: { test: "echo ran >> ran.txt" } }));
  const shell = (command: string) => ({ toolCalls: [{ name: "shell", arguments: { command } }] });
  const script = path.join(root, "script.json");
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [shell("npm test"), { text: ["Ran."] }, shell("npm test"), shell("npm test; rm -rf x"), { text: ["Done."] }],
    }),
  );
  const k = startTestKernel({ workspace, env: { HEARTH_ALLOW_SCRIPTED: "1", HEARTH_HOME: path.join(root, "home") } });
  kernels.push(k);
  await k.client.initialize("test", "0", { client: { kind: "window", folder: workspace, asksPerson: true } });
  const driver = new TurnDriver(k.client, (req) =>
    req.alwaysAllow
      ? { decision: "approve", reason: "allowed on its card, always in this folder", surface: "card", alwaysAllow: true }
      : { decision: "deny", reason: "denied by the test", surface: "card" },
  );
  const { sessionId } = await k.client.request("session/create", { model: `scripted:${script}` });

  const first = await k.client.request("turn/start", { sessionId, message: "test it" });
  assert.equal((await driver.completion(first.turnId)).status, "completed");
  assert.deepEqual(
    driver.approvals.map((a) => a.alwaysAllow),
    ["npm test"],
    "the request offered exactly the command's own rule",
  );
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(workspace, ".hearth", "rules.json"), "utf8")), {
    rules: [{ tool: "shell", command: "npm test", decision: "allow" }],
  });

  const second = await k.client.request("turn/start", { sessionId, message: "again, and clean up" });
  assert.equal((await driver.completion(second.turnId)).status, "completed");
  assert.equal(driver.approvals.length, 2, "the second `npm test` did not ask; the chained command did");
  assert.equal(driver.approvals[1]!.call.arguments.command, "npm test; rm -rf x");
  assert.equal(driver.approvals[1]!.alwaysAllow, undefined, "no rule is offered for a command list");
  assert.equal(fs.readFileSync(path.join(workspace, "ran.txt"), "utf8"), "ran\nran\n", "npm test ran in both turns");
  assert.ok(fs.existsSync(path.join(workspace, "x")), "the denied chain removed nothing");

  const history = await k.client.request("session/history", { sessionId });
  assert.deepEqual(
    (history.decisions ?? []).map((d) => [d.decision, d.surface, d.decidedBy.kind, d.surface === "rule" ? d.decidedBy.clientId : ""]),
    [
      ["approve", "card", "window", ""],
      ["approve", "rule", "kernel", '"allow shell `npm test`" (workspace .hearth/rules.json #1)'],
      ["deny", "card", "window", ""],
    ],
  );
});

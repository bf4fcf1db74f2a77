// Errors after a background task's edit (issue 29 item 4): a task has no window of its own, so the
// problems its approved write leaves are asked of a window connected to the folder's kernel, the same
// window before and after the install; the report is journaled with the call and shown to the task's
// model (the script checks the exact output). With no window connected the result says none were
// collected, and the write is made all the same. A real kernel process over a real journal.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import type { ServerRequestParams, TaskSummary } from "../../../shared/protocol/index.js";
import { scriptedKernelSetup } from "../../support/cliProcess.js";
import { startTestKernel } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";

const CONTENT = 'export const n: number = "x";\n';
const WROTE = "wrote 30 bytes to `a.ts`";
const REPORT =
  "This write left 1 error in a.ts that was not there before (from the editor's language servers):\na.ts:1:14 error ts(2322): x";
const NO_EDITOR = "No problems were collected after this write: no editor is attached to this turn to report them.";

/** A kernel whose scripted task writes a.ts, then ends only if it was shown `expected` as the write's result. */
function taskKernel(prefix: string, expected: string) {
  const t = scriptedKernelSetup(prefix, [
    { toolCalls: [{ name: "write_file", arguments: { path: "a.ts", content: CONTENT } }] },
    { expectToolOutputs: [expected], text: ["Wrote it."] },
  ]);
  const k = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  return { k, workspace: t.workspace, model: t.model };
}

async function ended(k: ReturnType<typeof taskKernel>["k"], taskId: string): Promise<{ task: TaskSummary; result: string | null }> {
  let shown = await k.client.request("task/show", { taskId });
  for (let i = 0; i < 200 && !["completed", "failed", "cancelled"].includes(shown.task.state); i++) {
    await new Promise((r) => setTimeout(r, 100));
    shown = await k.client.request("task/show", { taskId });
  }
  return shown;
}

it("a task's approved write gets the new problems a connected window reports, the same window noting them before the install (issue 29 item 4)", async () => {
  const { k, workspace, model } = taskKernel("task-problems", `${WROTE}\n\n${REPORT}`);
  try {
    await k.client.initialize("test", "0", { client: { kind: "window", folder: workspace, asksPerson: true } });
    new TurnDriver(k.client, () => ({ decision: "approve", reason: "approved by the test" }));
    const asked: string[] = [];
    const onDisk: boolean[] = [];
    const noted = (req: ServerRequestParams<"diagnostics/baseline">) => {
      onDisk.push(fs.existsSync(path.join(workspace, "a.ts")));
      asked.push(`${req.callId} ${req.path}`);
    };
    k.client.onServerRequest("diagnostics/baseline", async (req) => {
      noted(req);
      return { noted: true };
    });
    k.client.onServerRequest("diagnostics/afterWrite", async (req) => {
      noted(req);
      return { report: `${REPORT}\n` };
    });
    const { task } = await k.client.request("task/start", { instruction: "write a.ts", model });
    const shown = await ended(k, task.taskId);
    assert.equal(shown.task.state, "completed", `the task's model was shown another result: ${shown.task.reason}`);
    assert.equal(shown.result, "Wrote it.");
    assert.equal(asked.length, 2, "noted before, reported after");
    assert.equal(asked[0], asked[1], "both ask about the same call and file");
    assert.deepEqual(onDisk, [false, true], "the baseline is taken before the install, the report after it");
    const history = await k.client.request("session/history", { sessionId: task.sessionId });
    assert.deepEqual(
      history.messages.flatMap((m) => (m.role === "tool" ? [m.output] : [])),
      [`${WROTE}\n\n${REPORT}`],
      "journaled with the call, as the model was shown it",
    );
  } finally {
    await k.stop();
  }
});

it("with no window connected, a task's write result says no problems were collected, and the file is written", async () => {
  const { k, workspace, model } = taskKernel("task-problems-none", `${WROTE}\n\n${NO_EDITOR}`);
  try {
    // A terminal starts it and answers its approval (hearth task approve); no window is there to ask.
    await k.client.initialize("test", "0", { client: { kind: "terminal", folder: workspace, asksPerson: false } });
    const { task } = await k.client.request("task/start", { instruction: "write a.ts", model });
    let answered = false;
    for (let i = 0; i < 200 && !answered; i++) {
      answered = (await k.client.request("task/answer", { taskId: task.taskId, decision: "approve" })).answered;
      if (!answered) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(answered, "the task asked for its write's approval");
    const shown = await ended(k, task.taskId);
    assert.equal(shown.task.state, "completed", `the task's model was shown another result: ${shown.task.reason}`);
    assert.equal(fs.readFileSync(path.join(workspace, "a.ts"), "utf8"), CONTENT);
  } finally {
    await k.stop();
  }
});

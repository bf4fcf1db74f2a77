import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TaskSummary } from "../../../../shared/protocol/index.js";
import {
  approvalTarget,
  elapsed,
  taskApprovalText,
  taskCountText,
  titleFromInstruction,
  transcriptMarkdown,
} from "../../../../extension/tasks/taskText.js";

const task = (over: Partial<TaskSummary> = {}): TaskSummary => ({
  taskId: "d1",
  sessionId: "s1",
  turnId: "r1",
  parentSessionId: null,
  workstreamId: "w1",
  title: "Add tests",
  instruction: "Add tests for the parser",
  model: "scripted:x.json",
  tools: ["write_file"],
  state: "running",
  reason: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:10.000Z",
  readOnly: false,
  resultArtifactId: null,
  ...over,
});

describe("task text (issue 12 item 5)", () => {
  it("a title is the instruction's first words, marked cut when longer", () => {
    assert.equal(titleFromInstruction("  add   tests for\nthe parser "), "add tests for the parser");
    assert.equal(titleFromInstruction("one two three four five six seven eight nine ten"), "one two three four five six seven eight…");
  });

  it("elapsed time runs to now while a task is live and stops at its last change once it ended", () => {
    const now = Date.parse("2025-01-01T00:02:05.000Z");
    assert.equal(elapsed(task(), now), "2m 5s");
    assert.equal(elapsed(task({ state: "completed" }), now), "10s");
    assert.equal(elapsed(task({ state: "waiting_approval" }), Date.parse("2025-01-01T02:03:00.000Z")), "2h 3m");
  });

  it("the status bar counts running tasks and approvals waiting, and hides when there are none", () => {
    assert.equal(taskCountText([{ state: "completed" }, { state: "queued" }]), null);
    assert.equal(
      taskCountText([{ state: "running" }, { state: "running" }, { state: "waiting_approval" }])?.text,
      "$(tasklist) 2 running · 1 awaiting approval",
    );
    assert.equal(taskCountText([{ state: "waiting_approval" }])?.text, "$(tasklist) 1 awaiting approval", "a zero count is not shown");
  });

  it("the approval notification names the task, the tool and its target exactly (harness #8: what it will do)", () => {
    assert.equal(
      taskApprovalText("Add tests", "write_file", approvalTarget({ kind: "diff", path: "src/a.test.ts" })),
      'Task "Add tests" wants to run write_file on src/a.test.ts',
    );
    assert.equal(approvalTarget({ kind: "text", text: "npm test\n(in /w)" }), "npm test");
  });

  it("the transcript shows the instruction, the calls with their outcome and the result", () => {
    const md = transcriptMarkdown(
      task({ state: "completed" }),
      [
        { seq: 0, role: "system", text: "sys" },
        { seq: 1, role: "user", text: "Add tests for the parser" },
        { seq: 2, role: "assistant", text: "Writing.", toolCalls: [{ callId: "c1", name: "write_file", arguments: { path: "a.ts" } }] },
        { seq: 3, role: "tool", callId: "c1", name: "write_file", ok: false, output: "denied" },
      ],
      "Done.",
    );
    assert.match(md, /## Instruction\n\nAdd tests for the parser/);
    assert.match(md, /calls `write_file` ```\{"path":"a.ts"\}```/);
    assert.match(md, /`write_file` failed:\n\n```\ndenied\n```/);
    assert.match(md, /## Result\n\nDone\.\n$/);
    assert.doesNotMatch(md, /sys/, "the system prompt is not the task's transcript");
  });

  it("a run of identical calls and of identical results is one line each, with its count (issue 25 item 11)", () => {
    const call = (seq: number) => ({
      seq,
      role: "assistant" as const,
      text: "",
      toolCalls: [{ callId: `c${seq}`, name: "edit_file", arguments: { path: "Here" } }],
    });
    const failed = (seq: number) => ({
      seq,
      role: "tool" as const,
      callId: `c${seq - 1}`,
      name: "edit_file",
      ok: false,
      output: "refused",
    });
    const messages = [{ seq: 1, role: "user" as const, text: "Edit Here" }];
    for (let seq = 2; seq < 2 + 2 * 22; seq += 2) messages.push(call(seq) as never, failed(seq + 1) as never);
    const md = transcriptMarkdown(task({ state: "completed" }), messages as never, null);
    assert.equal(md.match(/calls `edit_file`/g)?.length, 22, "calls and results alternate, so each call stays");
    const burst = transcriptMarkdown(
      task({ state: "completed" }),
      [
        { seq: 1, role: "user", text: "Edit Here" },
        {
          seq: 2,
          role: "assistant",
          text: "",
          toolCalls: Array.from({ length: 22 }, (_, i) => ({ callId: `c${i}`, name: "edit_file", arguments: { path: "Here" } })),
        },
        ...Array.from({ length: 22 }, (_, i) => ({
          seq: 3 + i,
          role: "tool" as const,
          callId: `c${i}`,
          name: "edit_file",
          ok: false,
          output: "refused",
        })),
      ],
      null,
    );
    assert.equal(burst.match(/calls `edit_file`/g)?.length, 1);
    assert.match(burst, /- calls `edit_file` \(22 times\) ```\{"path":"Here"\}```/);
    assert.match(burst, /- `edit_file` failed \(22 times\):\n\n```\nrefused\n```/);
  });

  it("a forked task's transcript says which chat its first messages came from, and a task that is no fork says nothing of it (issue 29 item 2)", () => {
    const forked = transcriptMarkdown(task({ forkedFrom: { sessionId: "s0", title: "Plan the parser", atSeq: 3 } }), [], null);
    assert.match(forked, /Forked from the chat "Plan the parser" at #3: the messages before it are that chat's\./);
    assert.doesNotMatch(transcriptMarkdown(task(), [], null), /Forked from/);
  });
});

// Loop guards (issue 13, item 2): a turn that keeps making the same failing call, or asks for tools
// round after round, ends with its own "stopped" failure; history keeps what harness #10 says.
import assert from "node:assert/strict";
import { it } from "node:test";
import { LoopGuard } from "../../../../sidecar/agent/loopGuard.js";
import type { Tool, ToolResult } from "../../../../sidecar/agent/ports/tools.js";
import { assertStructurallyComplete, builder, FnModel } from "../../../support/harnessFixtures.js";

/** A read-only tool that always fails the same way, and counts its runs. */
class MissingPathTool implements Tool {
  runs = 0;
  readonly definition = {
    name: "list_dir",
    description: "Lists a folder",
    parameters: {
      type: "object" as const,
      properties: { path: { type: "string" as const, maxLength: 100 }, depth: { type: "integer" as const, minimum: 1, maximum: 3 } },
      required: ["path"],
    },
    effectClass: "read" as const,
    retryPolicy: "safe_retry" as const,
    cancellation: "FinishOnceStarted" as const,
    requiresApproval: false,
    identityDigest: "sha256:missing-v1",
  };
  async propose() {
    return { preview: { kind: "text" as const, text: "list" } };
  }
  async invoke(args: Record<string, unknown>): Promise<ToolResult> {
    this.runs++;
    return { ok: false, output: `\`${String(args.path)}\` does not exist; list the folder with list_dir to see what is there` };
  }
}

const callsEveryRound = (args: (round: number) => Record<string, unknown>) =>
  new FnModel(async (_req, _chunk, round) => ({
    text: "",
    reasoning: "",
    toolCalls: [{ name: "list_dir", arguments: args(round) }],
    stopReason: "tool_calls",
  }));

it("the same failing call made 3 times stops the turn with status stopped, keeping its checkpoints (issue 13; harness #10)", async () => {
  const tool = new MissingPathTool();
  // Key order differs between rounds: the guard compares canonical input.
  const { memory, builder: b } = builder(
    callsEveryRound((r) => (r % 2 ? { depth: 2, path: "Here" } : { path: "Here", depth: 2 })),
    [tool],
  );
  const out = await b.build().runTurn("What does src/math.js do?");
  assert.equal(out.status, "failed");
  assert.equal(out.status === "failed" && out.failure.kind, "repeated_failure");
  assert.match(
    out.status === "failed" ? out.failure.message : "",
    /^stopped: the model made the same failing call 3 times \(list_dir \{.*"Here".*\}\); rephrase the request$/,
  );
  assert.equal(tool.runs, 3, "no fourth call ran");
  // The calls ran (an effect was possible), so each batch stays committed with its result.
  assert.deepEqual(
    memory.history.map((m) => m.role),
    ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"],
  );
  assertStructurallyComplete(memory.history);
});

it("the same call failing in different ways, or different calls failing, are not a loop (issue 13)", async () => {
  const tool = new MissingPathTool();
  const model = new FnModel(async (_req, _chunk, round) =>
    round < 5
      ? { text: "", reasoning: "", toolCalls: [{ name: "list_dir", arguments: { path: `dir${round}` } }], stopReason: "tool_calls" }
      : { text: "Nothing there.", reasoning: "", toolCalls: [], stopReason: "end" },
  );
  const { builder: b } = builder(model, [tool]);
  const out = await b.build().runTurn("look");
  assert.equal(out.status, "completed");
  assert.equal(tool.runs, 5);
});

it("a repeated call the schema check refuses stops the turn and, with no effect possible, rolls the turn back (issue 13; harness #10, #13)", async () => {
  const tool = new MissingPathTool();
  const { memory, builder: b } = builder(
    callsEveryRound(() => ({ path: "Here", depth: 8_000_000_000_000_000 })),
    [tool],
  );
  const out = await b.repeatedFailureLimit(2).build().runTurn("go");
  assert.equal(out.status === "failed" && out.failure.kind, "repeated_failure");
  assert.match(
    out.status === "failed" ? out.failure.message : "",
    /^stopped: the model made the same failing call 2 times \(list_dir \{"path":"Here","depth":8000000000000000\}\)/,
  );
  assert.equal(tool.runs, 0);
  assert.deepEqual(memory.history, [], "refused calls had no effect: nothing of the turn is committed");
});

it("a turn that uses every round without answering stops with its own status (issue 13; harness #10)", async () => {
  const tool = new MissingPathTool();
  const { memory, builder: b } = builder(
    callsEveryRound((r) => ({ path: `p${r}` })),
    [tool],
  );
  const out = await b.maxRounds(4).build().runTurn("go");
  assert.equal(out.status === "failed" && out.failure.kind, "round_limit");
  assert.match(out.status === "failed" ? out.failure.message : "", /^stopped: the model asked for tools in 4 rounds without answering/);
  assert.equal(memory.history.length, 1 + 4 * 2);
});

it("the same failing call repeated inside one batch stops at its third failure; the rest of the batch does not run (issue 13; harness #6, #10)", async () => {
  const tool = new MissingPathTool();
  const model = new FnModel(async () => ({
    text: "",
    reasoning: "",
    toolCalls: Array.from({ length: 6 }, () => ({ name: "list_dir", arguments: { path: "Here" } })),
    stopReason: "tool_calls",
  }));
  const { memory, builder: b } = builder(model, [tool]);
  const out = await b.build().runTurn("go");
  assert.equal(out.status === "failed" && out.failure.kind, "repeated_failure");
  assert.equal(tool.runs, 3);
  const results = memory.history.filter((m) => m.role === "tool") as { output: string; resultKind?: string }[];
  assert.equal(results.length, 6, "every call of the batch has a result (harness #6)");
  assert.deepEqual(
    results.map((r) => r.resultKind),
    ["claimed", "claimed", "claimed", "stopped", "stopped", "stopped"],
    "issue 22 item 3: a guard's stop is a typed kind, not read from the words",
  );
  assert.equal(out.status === "failed" && out.failure.detail, out.status === "failed" && out.failure.message.slice("stopped: ".length));
  assert.ok(
    results.slice(3).every((r) => r.output.startsWith("not run: stopped: the model made the same failing call 3 times")),
    JSON.stringify(results.slice(3)),
  );
  assertStructurallyComplete(memory.history);
});

it("the stop says how often the same call failed in words right for every limit, once included (issue 13 loop guards: a stop a person can act on)", async () => {
  const stopAt = async (limit: number) => {
    const { builder: b } = builder(
      callsEveryRound(() => ({ path: "Here" })),
      [new MissingPathTool()],
    );
    const out = await b.repeatedFailureLimit(limit).build().runTurn("go");
    assert.equal(out.status === "failed" && out.failure.kind, "repeated_failure");
    return out.status === "failed" ? out.failure.message : "";
  };
  assert.equal(await stopAt(1), 'stopped: the model made a failing call once (list_dir {"path":"Here"}); rephrase the request');
  assert.equal(await stopAt(2), 'stopped: the model made the same failing call 2 times (list_dir {"path":"Here"}); rephrase the request');
});

it("harness #10: only failures count toward the repeated-failure stop; the same successful call may repeat", () => {
  // A mutation run found that counting successes too (`if (result.ok) return` removed) left every test green.
  const guard = new LoopGuard({ repeatedFailures: 2, maxRounds: 25 });
  const call = { callId: "c", name: "read_file", arguments: { path: "a.txt" } };
  for (let i = 0; i < 5; i++) guard.afterCall(call, { role: "tool", callId: "c", name: "read_file", ok: true, output: "same" });
  guard.afterCall(call, { role: "tool", callId: "c", name: "read_file", ok: false, output: "gone" });
  assert.throws(() => guard.afterCall(call, { role: "tool", callId: "c", name: "read_file", ok: false, output: "gone" }), /stopped/);
});

// control plane #18: which tools a leaf session is refused, by name, and that the refusal is the leaf's alone.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { projectToolsForRole } from "../../../../../sidecar/kernel/control/roles.js";
import { count, invocation, openFixture, runningRun } from "../../../../support/journalFixture.js";

// The agent-management tools of spec 004 ("every leaf-restricted tool (including send_agent_message)"), spelled out here
// rather than read from the module, so a name dropped from its set is noticed.
const AGENT_MANAGEMENT = ["spawn_agent", "delegate_task", "continue_agent", "send_agent_message"];

it("control plane #18: a leaf's projection omits each agent-management tool by name, and keeps the others", () => {
  const tools = [...AGENT_MANAGEMENT, "read_file", "run_command"].map((name) => ({ name }));
  assert.deepEqual(
    projectToolsForRole("leaf", tools).map((t) => t.name),
    ["read_file", "run_command"],
  );
});

it("control plane #18: the kernel refuses each agent-management tool from a leaf, naming the tool, and records no claim", () => {
  const f = openFixture();
  const run = runningRun(f, { role: "leaf" });
  for (const tool of AGENT_MANAGEMENT) {
    assert.throws(
      () => f.control.prepareInvocation(invocation(run, `call-${tool}`, tool, "network")),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.Refused && e.message.includes(`\`${tool}\``),
      tool,
    );
  }
  assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations`), 0);
  f.close();
});

it("control plane #18: a leaf may still call ordinary tools, and a coordinator may call agent-management tools", () => {
  const f = openFixture();
  const leaf = runningRun(f, { role: "leaf" });
  f.control.prepareInvocation(invocation(leaf, "call-read", "read_file", "read", { input: { path: "a" } }));
  const coordinator = runningRun(f, { role: "coordinator" });
  for (const tool of AGENT_MANAGEMENT) f.control.prepareInvocation(invocation(coordinator, `call-${tool}`, tool, "network"));
  assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE run_id = ?`, leaf.turnId), 1);
  assert.equal(
    count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations WHERE run_id = ?`, coordinator.turnId),
    AGENT_MANAGEMENT.length,
  );
  f.close();
});

// The authority snapshot's digests and the drift refusal (harness #19): added after a mutation run of
// authoritySnapshot.ts (docs/mutation.md), where the digest labels, the version drift and the refusal's data were unguarded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { AgentSessionBuilder, InMemoryAgentMemory, type AuthorityInputs } from "../../../../sidecar/agent/index.js";
import { digestOf } from "../../../../sidecar/agent/canonicalJson.js";
import { AUTHORITY, CounterTool, FnModel } from "../../../support/harnessFixtures.js";

const answerOnly = () => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));
const tools = () => [new CounterTool({ name: "zeta" }), new CounterTool({ name: "alpha", cancellation: "Interruptible" })];
const session = (inputs: AuthorityInputs = AUTHORITY) =>
  new AgentSessionBuilder().model(answerOnly()).memory(new InMemoryAgentMemory()).tools(tools()).authorityInputs(inputs);

describe("authority snapshot digests (harness #19)", () => {
  it("harness #19: each part is digested under its own versioned label, so a pin recorded by an earlier build still matches", () => {
    // Pins are durable (`session.authority_pinned` in the journal): a label that changed between builds would
    // refuse every recorded session's resume as drifted. Changing a label is a deliberate version bump.
    const snap = session({ ...AUTHORITY, enablement: {}, ceilings: {} }).authoritySnapshot();
    const parts = {
      workspace: digestOf("hearth.authority.workspace.v1", snap.workspace),
      tools: digestOf("hearth.authority.tools.v1", snap.tools),
      enablement: digestOf("hearth.authority.enablement.v1", snap.enablement),
      ceilings: digestOf("hearth.authority.ceilings.v1", snap.ceilings),
    };
    assert.deepEqual(snap.digests, { ...parts, authority: digestOf("hearth.authority.v1", { version: snap.version, ...parts }) });
    assert.equal(new Set(Object.values(snap.digests)).size, 5, "empty enablement and empty ceilings still digest apart");
  });

  it("harness #19: a drifted resume is Refused, names every drifted part and what to do, and carries them as data", () => {
    const recorded = session().authoritySnapshot().digests;
    const moved = { ...AUTHORITY, workspaceIdentity: { dev: "2049", ino: "7" }, ceilings: { shellTimeoutMs: 1 } };
    assert.throws(
      () => session(moved).expectAuthority(recorded).build(),
      (e: unknown) =>
        e instanceof HearthError &&
        e.code === ErrorCode.Refused &&
        e.message ===
          "refused to resume: the session's authority drifted (workspace, ceilings changed since it was recorded); " +
            "start a new session to run under the current tools and workspace" &&
        JSON.stringify(e.data) === JSON.stringify({ drifted: ["workspace", "ceilings"] }),
    );
  });

  it("harness #19: a pin recorded under another snapshot version fails closed and names the version", () => {
    const current = session().authoritySnapshot();
    const { authority: _a, ...parts } = current.digests;
    // The same parts, digested as a version-0 build would have: only the version differs.
    const recorded = { ...parts, version: 0, authority: digestOf("hearth.authority.v1", { version: 0, ...parts }) };
    assert.throws(
      () => session().expectAuthority(recorded).build(),
      (e: unknown) =>
        e instanceof HearthError &&
        e.code === ErrorCode.Refused &&
        e.message.startsWith(`refused to resume: the session's authority drifted (snapshot version (0 → ${current.version}) changed`) &&
        JSON.stringify(e.data) === JSON.stringify({ drifted: [] }),
    );
    assert.ok(session().expectAuthority(current.digests).build(), "the same authority resumes");
  });
});

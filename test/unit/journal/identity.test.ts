// Identity, profiles, adapters, roles and authority (spec 004).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { isUuidv7 } from "../../../shared/ids.js";
import {
  ADAPTER_CAPABILITY_MATRIX,
  CAPABILITY_KEYS,
  adapterDeclaration,
  resolveAdapterWithinBoundary,
} from "../../../sidecar/kernel/control/adapterCapabilities.js";
import {
  assertAdapterAttemptResultContract,
  assertAdapterBindingContract,
  compatibilityHash,
} from "../../../sidecar/kernel/control/bindingContract.js";
import { LEAF_RESTRICTED_TOOLS, projectToolsForRole } from "../../../sidecar/kernel/control/roles.js";
import { CLIENT, count, openFixture, runningRun } from "./fixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

describe("kernel ids and adapter-native ids are separate namespaces (spec 004 identity)", () => {
  it("session, run, attempt and binding ids are kernel-minted UUIDv7", () => {
    const f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    const { bindingId } = f.control.ensureBinding(sessionId, attemptId);
    for (const id of [sessionId, runId, attemptId, bindingId]) assert.ok(isUuidv7(id), id);
    f.close();
  });

  it("assertAdapterBindingContract rejects an adapter that returns a kernel session id as its native id", () => {
    assert.throws(
      () => assertAdapterBindingContract({ sessionId: "s1", bindingId: "b1", adapterNativeSessionId: "s1" }),
      isCode(ErrorCode.Refused),
    );
    assert.throws(
      () => assertAdapterBindingContract({ sessionId: "s1", bindingId: "b1", adapterNativeSessionId: "r1" }, ["r1"]),
      isCode(ErrorCode.Refused),
    );
    assertAdapterBindingContract({ sessionId: "s1", bindingId: "b1", adapterNativeSessionId: "native-9" });
  });

  it("assertAdapterAttemptResultContract rejects conflation and drift from the binding's native id", () => {
    const b = { sessionId: "s1", bindingId: "b1", adapterNativeSessionId: "native-1" };
    assert.throws(() => assertAdapterAttemptResultContract(b, { adapterNativeSessionId: "s1" }), /kernel id/);
    assert.throws(() => assertAdapterAttemptResultContract(b, { adapterNativeSessionId: "native-2" }), /drift/);
    assertAdapterAttemptResultContract(b, { adapterNativeSessionId: "native-1" });
  });

  it("the control plane refuses a native id equal to a kernel id and refuses drift on a bound binding", () => {
    const f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    const { bindingId } = f.control.ensureBinding(sessionId, attemptId);
    assert.throws(() => f.control.recordAdapterNativeSessionId(bindingId, sessionId), isCode(ErrorCode.Refused));
    assert.throws(() => f.control.recordAdapterNativeSessionId(bindingId, runId), isCode(ErrorCode.Refused));
    f.control.recordAdapterNativeSessionId(bindingId, "native-1");
    assert.throws(() => f.control.recordAdapterNativeSessionId(bindingId, "native-2"), /drift/);
    assert.throws(() => f.control.checkAttemptResult(bindingId, { adapterNativeSessionId: "native-2" }), /drift/);
    f.close();
  });

  it("binding_generation is monotonic per session/adapter and the session id never changes (stale binding retry)", () => {
    const f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    const b1 = f.control.ensureBinding(sessionId, attemptId);
    assert.equal(f.control.ensureBinding(sessionId, attemptId).reused, true);
    f.control.finishRun(runId, "completed");
    f.control.migrateProfile(sessionId, 1, { systemPrompt: "new" });
    const next = f.control.admitRun(sessionId, "again", CLIENT);
    const b2 = f.control.ensureBinding(sessionId, next.attemptId);
    assert.equal(b2.bindingGeneration, b1.bindingGeneration + 1);
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM adapter_bindings WHERE session_id = ? AND status = 'stale'`, sessionId), 1);
    f.close();
  });

  it("compatibility hashes include cwd and system prompt and strip request-scoped env", () => {
    const base = {
      profileGeneration: 1,
      kernelPolicyVersion: 1,
      workingDirectory: "/ws",
      systemPrompt: "p",
      toolServers: [{ name: "s", command: "c", env: { A: "1" } }],
    };
    const h = compatibilityHash(base);
    assert.equal(compatibilityHash({ ...base, toolServers: [{ name: "s", command: "c", env: { A: "1", HEARTH_REQUEST_ID: "9" } }] }), h);
    assert.notEqual(compatibilityHash({ ...base, workingDirectory: "/other" }), h);
    assert.notEqual(compatibilityHash({ ...base, systemPrompt: "q" }), h);
  });
});

describe("session execution profiles are immutable generations (spec 004)", () => {
  it("profile rows cannot be updated in place", () => {
    const f = openFixture();
    f.control.createSession({ model: "scripted:x" });
    assert.throws(() => f.journal.db.prepare(`UPDATE session_execution_profiles SET model_profile = 'y'`).run(), /immutable/);
    f.close();
  });

  it("migration rejects a stale expected generation", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    assert.equal(f.control.migrateProfile(sessionId, 1, { systemPrompt: "b" }), 2);
    assert.throws(() => f.control.migrateProfile(sessionId, 1, { systemPrompt: "c" }), isCode(ErrorCode.Conflict));
    f.close();
  });

  it("migration rejects a session with an active run and leaves nothing half-written", () => {
    const f = openFixture();
    const { sessionId } = runningRun(f);
    assert.throws(() => f.control.migrateProfile(sessionId, 1, { systemPrompt: "b" }), isCode(ErrorCode.Conflict));
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM session_execution_profiles WHERE session_id = ?`, sessionId), 1);
    f.close();
  });

  it("migration creates a new generation, stales bindings, keeps the session id, and survives restart", () => {
    let f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    f.control.ensureBinding(sessionId, attemptId);
    f.control.finishRun(runId, "completed");
    f.control.migrateProfile(sessionId, 1, { model: "scripted:other" });
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM adapter_bindings WHERE status = 'active'`), 0);
    f = f.restart();
    const p = f.control.profile(sessionId);
    assert.deepEqual([p.generation, p.model_profile, p.adapter], [2, "scripted:other", "scripted"]);
    f.close();
  });

  it("next-session defaults: a session created later takes the model it is given, earlier sessions keep theirs", () => {
    const f = openFixture();
    const a = f.control.createSession({ model: "scripted:one" });
    const b = f.control.createSession({ model: "scripted:two" });
    assert.equal(f.control.profile(a.sessionId).model_profile, "scripted:one");
    assert.equal(f.control.profile(b.sessionId).model_profile, "scripted:two");
    f.close();
  });
});

describe("adapter capabilities and credential scope are explicit (spec 004)", () => {
  it("ADAPTER_CAPABILITY_MATRIX declares every key for every adapter, and every known_limitation names a follow-up", () => {
    assert.deepEqual(Object.keys(ADAPTER_CAPABILITY_MATRIX).sort(), ["llama", "openai", "scripted"]);
    for (const [name, decl] of Object.entries(ADAPTER_CAPABILITY_MATRIX)) {
      assert.deepEqual(Object.keys(decl.capabilities).sort(), [...CAPABILITY_KEYS].sort(), name);
      assert.ok(["local_user", "managed_cloud"].includes(decl.credentialScope));
      for (const [key, c] of Object.entries(decl.capabilities) as [string, { level: string; followUp?: string }][]) {
        assert.ok(["required", "unsupported", "known_limitation"].includes(c.level), `${name}.${key}`);
        if (c.level === "known_limitation") assert.ok(c.followUp && c.followUp.length > 10, `${name}.${key} needs a follow-up`);
      }
      // Process-local bindings are pinned or stale: resume_fidelity none + pinnedWorker for in-process adapters.
      if (decl.resumeFidelity === "none" && name !== "openai") assert.equal(decl.capabilities.pinnedWorker.level, "required", name);
    }
  });

  it("unknown adapters fail closed", () => {
    assert.throws(() => adapterDeclaration("hermes"), isCode(ErrorCode.Refused));
    assert.throws(() => adapterDeclaration("__proto__"), isCode(ErrorCode.Refused));
    assert.throws(() => resolveAdapterWithinBoundary("local_user:llama", "mystery"), isCode(ErrorCode.Refused));
  });

  it("a session persists its provider boundary; missing adapters inherit it; no switch behind it", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    assert.equal((f.journal.db.prepare(`SELECT provider_boundary AS b FROM sessions`).get() as { b: string }).b, "local_user:scripted");
    assert.equal(resolveAdapterWithinBoundary("local_user:scripted", undefined), "scripted");
    assert.throws(() => f.control.migrateProfile(sessionId, 1, { model: "openai:http://localhost:1#m" }), /pinned to adapter scripted/);
    f.close();
  });
});

describe("execution role owns agent-management authority (spec 004)", () => {
  it("leaf tool projection omits agent creation and continuation tools", () => {
    const tools = [...LEAF_RESTRICTED_TOOLS, "read_file", "write_file"].map((name) => ({ name }));
    assert.deepEqual(
      projectToolsForRole("leaf", tools).map((t) => t.name),
      ["read_file", "write_file"],
    );
    assert.equal(projectToolsForRole("coordinator", tools).length, tools.length);
  });

  it("the kernel independently rejects every leaf-restricted tool from a leaf, even when forged", () => {
    const f = openFixture();
    const { runId, attemptId } = runningRun(f, { role: "leaf" });
    for (const tool of LEAF_RESTRICTED_TOOLS) {
      assert.throws(
        () => f.control.prepareInvocation({ runId, attemptId, callId: tool, tool, input: {}, manifestDigest: "m", effectClass: "network" }),
        isCode(ErrorCode.Refused),
        tool,
      );
    }
    assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM tool_invocations`), 0);
    f.close();
  });

  it("role and provider boundary persist; delegations are leaves and a leaf cannot spawn", () => {
    const f = openFixture();
    const { sessionId } = f.control.createSession({ model: "scripted:x" });
    const task = f.control.createDelegation({ parentSessionId: sessionId, title: "t", prompt: "do it", model: "scripted:x" }, CLIENT);
    assert.equal(f.control.history(task.sessionId).session.role, "leaf");
    assert.throws(
      () => f.control.createDelegation({ parentSessionId: task.sessionId, title: "t2", prompt: "p", model: "scripted:x" }, CLIENT),
      isCode(ErrorCode.Refused),
    );
    f.close();
  });
});

describe("authority (spec 004)", () => {
  it("owner authority comes from the kernel context: another owner's session and run are refused", () => {
    const f = openFixture();
    const { sessionId, runId, attemptId } = runningRun(f);
    f.journal.close();
    const g = openFixture(f.file, "local:someone-else");
    assert.throws(() => g.control.history(sessionId), isCode(ErrorCode.Refused));
    assert.throws(() => g.control.admitRun(sessionId, "x", CLIENT), isCode(ErrorCode.Refused));
    assert.throws(() => g.control.requestCancel(runId), isCode(ErrorCode.Refused));
    assert.throws(
      () =>
        g.control.prepareInvocation({
          runId,
          attemptId,
          callId: "c",
          tool: "read_file",
          input: {},
          manifestDigest: "m",
          effectClass: "read",
        }),
      isCode(ErrorCode.Refused),
    );
    assert.deepEqual(g.control.listSessions(), []);
    g.close();
  });
});

describe("workstream identity is the reusable task-work boundary (spec 004)", () => {
  it("every view of a workstream reuses one conversation per owner, and its tasks share artifact history", () => {
    let f = openFixture();
    const ws = f.control.createWorkstream("refactor");
    const first = f.control.workstreamSession(ws, "scripted:x");
    assert.equal(first.created, true);
    assert.deepEqual(f.control.workstreamSession(ws), { sessionId: first.sessionId, created: false });
    const task = f.control.createDelegation(
      { parentSessionId: first.sessionId, title: "t", prompt: "p", model: "scripted:x", workstreamId: ws },
      CLIENT,
    );
    const art = f.control.recordArtifact({ sessionId: task.sessionId, runId: task.runId, kind: "plan", title: "plan", body: { steps: 1 } });
    assert.ok(isUuidv7(art));
    f = f.restart();
    assert.deepEqual(f.control.workstreamSession(ws), { sessionId: first.sessionId, created: false }, "reuse survives restart");
    assert.equal(
      count(
        f.journal,
        `SELECT COUNT(*) AS n FROM artifacts a JOIN delegations d ON d.child_session_id = a.session_id WHERE d.workstream_id = ?`,
        ws,
      ),
      1,
    );
    f.close();
  });
});

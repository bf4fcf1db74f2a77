// Identity, profiles, adapters, roles and authority (control plane #1, #3, #5, #16 to #18).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { isUuidv7 } from "../../../../../shared/ids.js";
import {
  ADAPTER_CAPABILITY_MATRIX,
  CAPABILITY_KEYS,
  adapterDeclaration,
} from "../../../../../sidecar/kernel/control/adapterCapabilities.js";
import { LEAF_RESTRICTED_TOOLS, projectToolsForRole } from "../../../../../sidecar/kernel/control/roles.js";
import { CLIENT, count, openFixture, runningRun, invocation } from "../../../../support/journalFixture.js";

const isCode = (code: number) => (e: unknown) => e instanceof HearthError && e.code === code;

describe("kernel ids (control plane #1)", () => {
  it("session, run and attempt ids are kernel-minted UUIDv7", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    for (const id of [sessionId, turnId, attemptId]) assert.ok(isUuidv7(id), id);
    f.close();
  });
});

describe("session execution profiles are immutable generations (control plane #3)", () => {
  it("profile rows cannot be updated in place", () => {
    const f = openFixture();
    f.control.createSession({ model: "scripted:x" });
    assert.throws(() => f.journal.db.prepare(`UPDATE session_execution_profiles SET model_profile = 'y'`).run(), /immutable/);
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

describe("adapter capabilities and credential scope are explicit (control plane #16, #17)", () => {
  it("ADAPTER_CAPABILITY_MATRIX declares every key for every adapter, and every known_limitation names a follow-up", () => {
    assert.deepEqual(Object.keys(ADAPTER_CAPABILITY_MATRIX).sort(), ["llama", "openai", "scripted"]);
    for (const [name, decl] of Object.entries(ADAPTER_CAPABILITY_MATRIX)) {
      assert.deepEqual(Object.keys(decl.capabilities).sort(), [...CAPABILITY_KEYS].sort(), name);
      assert.ok(["local_user", "managed_cloud"].includes(decl.credentialScope));
      for (const [key, c] of Object.entries(decl.capabilities) as [string, { level: string; followUp?: string }][]) {
        assert.ok(["required", "unsupported", "known_limitation"].includes(c.level), `${name}.${key}`);
        if (c.level === "known_limitation") assert.ok(c.followUp && c.followUp.length > 10, `${name}.${key} needs a follow-up`);
      }
      // An in-process adapter without native resume keeps its session in a pinned worker.
      if (decl.capabilities.nativeResume.level !== "required" && name !== "openai")
        assert.equal(decl.capabilities.pinnedWorker.level, "required", name);
    }
  });

  it("unknown adapters fail closed", () => {
    assert.throws(() => adapterDeclaration("hermes"), isCode(ErrorCode.Refused));
    assert.throws(() => adapterDeclaration("__proto__"), isCode(ErrorCode.Refused));
  });

  it("a session persists its provider boundary: its credential scope and exact adapter", () => {
    const f = openFixture();
    f.control.createSession({ model: "scripted:x" });
    assert.equal((f.journal.db.prepare(`SELECT provider_boundary AS b FROM sessions`).get() as { b: string }).b, "local_user:scripted");
    f.close();
  });
});

describe("execution role owns agent-management authority (control plane #18)", () => {
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
    const { turnId, attemptId } = runningRun(f, { role: "leaf" });
    for (const tool of LEAF_RESTRICTED_TOOLS) {
      assert.throws(
        () => f.control.prepareInvocation(invocation({ turnId, attemptId }, tool, tool, "network")),
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
    const task = f.control.createTask({ parentSessionId: sessionId, title: "t", prompt: "do it", model: "scripted:x" }, CLIENT);
    assert.equal(f.control.history(task.sessionId).session.role, "leaf");
    assert.throws(
      () => f.control.createTask({ parentSessionId: task.sessionId, title: "t2", prompt: "p", model: "scripted:x" }, CLIENT),
      isCode(ErrorCode.Refused),
    );
    f.close();
  });
});

describe("authority (control plane #5)", () => {
  it("owner authority comes from the kernel context: another owner's session and run are refused", () => {
    const f = openFixture();
    const { sessionId, turnId, attemptId } = runningRun(f);
    f.journal.close();
    const g = openFixture(f.file, "local:someone-else");
    assert.throws(() => g.control.history(sessionId), isCode(ErrorCode.Refused));
    assert.throws(() => g.control.admitTurn(sessionId, "x", CLIENT), isCode(ErrorCode.Refused));
    assert.throws(() => g.control.requestCancel(turnId), isCode(ErrorCode.Refused));
    assert.throws(
      () => g.control.prepareInvocation(invocation({ turnId, attemptId }, "c", "read_file", "read")),
      isCode(ErrorCode.Refused),
    );
    assert.deepEqual(g.control.listSessions(), []);
    g.close();
  });
});

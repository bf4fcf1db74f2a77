// The built tool set as the harness sees it (harness #5, #12, #19, #21): frozen definitions in
// the bounded schema vocabulary, the classes the ledger relies on, identities that change with
// configuration, independent registration, and a workspace descriptor that close() releases.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { JsonSchema } from "../../../../sidecar/agent/ports/jsonSchema.js";
import { buildWorkspaceTools, type WorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";
import { checkArgs } from "../../../../sidecar/tools/toolKit.js";

const EXPECTED: Record<string, [string, string, string, boolean]> = {
  read_file: ["read", "safe_retry", "FinishOnceStarted", false],
  list_dir: ["read", "safe_retry", "FinishOnceStarted", false],
  search_files: ["read", "safe_retry", "FinishOnceStarted", false],
  write_file: ["idempotent_write", "never_auto_retry", "FinishOnceStarted", true],
  edit_file: ["non_idempotent_write", "never_auto_retry", "FinishOnceStarted", true],
  shell: ["non_idempotent_write", "never_auto_retry", "Interruptible", true],
  web_fetch: ["network", "safe_retry", "Interruptible", true],
};

function inVocabulary(s: JsonSchema): boolean {
  const allowed: Record<string, string[]> = {
    string: ["type", "description", "enum", "minLength", "maxLength"],
    integer: ["type", "description", "minimum", "maximum"],
    number: ["type", "description", "minimum", "maximum"],
    boolean: ["type", "description"],
    array: ["type", "description", "items", "maxItems"],
    object: ["type", "description", "properties", "required", "additionalProperties"],
  };
  if (!Object.keys(s).every((k) => allowed[s.type]?.includes(k))) return false;
  if (s.type === "array") return inVocabulary(s.items);
  if (s.type === "object") return Object.values(s.properties).every(inVocabulary);
  return true;
}

describe("tool definitions (harness #5, #12, #21)", () => {
  let dir: string;
  let all: WorkspaceTools;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-defs-")));
    all = buildWorkspaceTools({
      workspaceRoot: dir,
      shell: true,
      network: { fetch: true },
    });
  });
  after(() => {
    all.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("every tool has the agreed effect class, retry, cancellation and approval (harness #21)", () => {
    assert.deepEqual(all.tools.map((t) => t.definition.name).sort(), Object.keys(EXPECTED).sort());
    for (const t of all.tools) {
      const d = t.definition;
      assert.deepEqual([d.effectClass, d.retryPolicy, d.cancellation, d.requiresApproval], EXPECTED[d.name], d.name);
    }
  });

  test("schemas stay in the bounded vocabulary and re-validation rejects strays (harness #5)", () => {
    for (const t of all.tools) {
      const s = t.definition.parameters;
      assert.ok(inVocabulary(s), `${t.definition.name} uses a keyword outside the vocabulary`);
      assert.equal(s.additionalProperties, false);
      assert.match(
        checkArgs(s, { ...Object.fromEntries((s.required ?? []).map((k) => [k, "x"])), bogus: 1 }) ?? "",
        /\$\.bogus: not a declared property/,
      );
    }
    const read = all.tools.find((t) => t.definition.name === "read_file")!.definition.parameters;
    assert.equal(checkArgs(read, { path: "a", startLine: 2, endLine: 3 }), null);
    assert.match(checkArgs(read, { path: "a", startLine: 0 }) ?? "", /\$\.startLine: below the minimum 1/);
    assert.match(checkArgs(read, { path: 7 }) ?? "", /\$\.path: expected a string/);
    assert.match(checkArgs(read, {}) ?? "", /\$\.path: required/);
  });

  test("definitions are immutable after build (harness #5)", () => {
    const d = all.tools[0]!.definition;
    assert.throws(() => ((d as { name: string }).name = "evil"), TypeError);
    assert.throws(() => ((d.parameters.properties as Record<string, unknown>).extra = {}), TypeError);
    assert.ok(Object.isFrozen(all.tools));
  });

  test("identity digests are stable for equal configuration and change with ceilings (harness #19)", () => {
    const a = buildWorkspaceTools({ workspaceRoot: dir, shell: false });
    const b = buildWorkspaceTools({ workspaceRoot: dir, shell: false });
    const c = buildWorkspaceTools({ workspaceRoot: dir, shell: false, ceilings: { readMaxBytes: 4096 } });
    try {
      const digest = (w: WorkspaceTools, n: string) => w.tools.find((t) => t.definition.name === n)!.definition.identityDigest;
      assert.equal(digest(a, "read_file"), digest(b, "read_file"));
      assert.notEqual(digest(a, "read_file"), digest(c, "read_file"));
      assert.equal(digest(a, "write_file"), digest(c, "write_file"));
      assert.match(digest(a, "read_file"), /^sha256:[0-9a-f]{64}$/);
    } finally {
      for (const w of [a, b, c]) w.close();
    }
  });

  test("policy can remove shell alone; file tools remain (harness #12)", () => {
    const w = buildWorkspaceTools({ workspaceRoot: dir, shell: false });
    try {
      assert.deepEqual(
        w.tools.map((t) => t.definition.name),
        ["read_file", "list_dir", "search_files", "write_file", "edit_file"],
      );
      const shellOnly = buildWorkspaceTools({ workspaceRoot: dir, files: false, shell: true });
      assert.deepEqual(
        shellOnly.tools.map((t) => t.definition.name),
        ["shell"],
      );
      shellOnly.close();
    } finally {
      w.close();
    }
  });

  test("the workspace identity names the held folder and close() releases its descriptor (harness #9, #19)", () => {
    const w = buildWorkspaceTools({ workspaceRoot: dir + "/", shell: false });
    const st = fs.statSync(dir, { bigint: true });
    assert.deepEqual(w.workspace, { canonicalPath: dir, dev: st.dev.toString(), ino: st.ino.toString() });
    const fdsBefore = fs.readdirSync("/proc/self/fd").length;
    w.close();
    assert.equal(fs.readdirSync("/proc/self/fd").length, fdsBefore - 1);
    w.close(); // idempotent
  });

  test("a relative workspace root is refused with a clear message", () => {
    assert.throws(() => buildWorkspaceTools({ workspaceRoot: "relative/dir", shell: false }), /must be an absolute path/);
  });
});

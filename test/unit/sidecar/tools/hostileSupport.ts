// Fixtures for the hostile-input suites: a sandbox with a workspace folder and an "outside"
// folder holding a secret, the real tools built on the workspace, and a check that nothing
// outside was read into a result or written.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import type { Tool, ToolResult } from "../../../../sidecar/agent/ports/tools.js";
import type { ResolverKind } from "../../../../sidecar/tools/anchoredFs.js";
import { buildWorkspaceTools, type WorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";

export const SECRET = "SECRET-" + crypto.randomBytes(4).toString("hex");

export interface Sandbox {
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  readonly built: WorkspaceTools;
  tool(name: string): Tool;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Asserts the outside folder holds exactly its original files with their original content. */
  assertOutsideUntouched(): void;
  dispose(): void;
}

export function sandbox(resolver?: ResolverKind): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-hostile-")));
  const ws = path.join(base, "ws");
  const outside = path.join(base, "outside");
  fs.mkdirSync(path.join(outside, "dir"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), SECRET + "\n");
  fs.writeFileSync(path.join(outside, "dir", "f.txt"), SECRET + "\n");
  fs.mkdirSync(path.join(ws, "dir"), { recursive: true });
  fs.writeFileSync(path.join(ws, "a.txt"), "alpha\nbeta\ngamma\n");
  fs.writeFileSync(path.join(ws, "dir", "f.txt"), "INSIDE\n");
  const snapshot = listTree(outside);
  const built = buildWorkspaceTools({ workspaceRoot: ws, shell: true, resolver, shellGraceMs: 200 });
  const byName = new Map(built.tools.map((t) => [t.definition.name, t]));
  const tool = (name: string): Tool => {
    const t = byName.get(name);
    assert.ok(t, `tool ${name} is registered`);
    return t;
  };
  return {
    base,
    ws,
    outside,
    built,
    tool,
    async call(name, args) {
      const ctx = { callId: crypto.randomUUID(), signal: new AbortController().signal };
      const t = tool(name);
      const proposal = await t.propose(args, ctx);
      const result = await t.invoke(args, proposal, ctx);
      assert.ok(!result.output.includes(SECRET), `a result leaked content from outside the workspace: ${result.output.slice(0, 200)}`);
      return result;
    },
    assertOutsideUntouched() {
      assert.deepEqual(listTree(outside), snapshot, "the folder outside the workspace changed");
    },
    dispose() {
      built.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** path → content (or type) for every entry under `root`, not following symlinks. */
export function listTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p);
      if (e.isDirectory()) {
        out[rel] = "<dir>";
        walk(p);
      } else if (e.isFile()) out[rel] = fs.readFileSync(p, "utf8");
      else out[rel] = "<special>";
    }
  };
  walk(root);
  return out;
}

/** A refusal a person can act on: starts with "refused:", names the path, leaks nothing. */
export function assertRefused(r: ToolResult, pattern: RegExp): void {
  assert.equal(r.ok, false, `expected a refusal, got success: ${r.output.slice(0, 200)}`);
  assert.match(r.output, /^refused: /);
  assert.match(r.output, pattern);
}

export const RESOLVERS: ResolverKind[] = process.platform === "linux" ? ["openat2", "procfd"] : ["pathwalk"];

/** Resolvers for cases without a concurrent attacker: on Linux the macOS-style pathwalk runs too. */
export const STATIC_RESOLVERS: ResolverKind[] = process.platform === "linux" ? ["openat2", "procfd", "pathwalk"] : ["pathwalk"];

/**
 * One sandbox for the describe block it is called in: made before its tests, with the resolver asked
 * for; after them, checked that nothing outside was touched, and removed. Call the result in tests.
 */
export function suiteSandbox(resolver: ResolverKind): () => Sandbox {
  let s: Sandbox | undefined;
  before(() => {
    s = sandbox(resolver);
    assert.equal(s.built.resolver, resolver);
  });
  after(() => {
    s?.assertOutsideUntouched();
    s?.dispose();
  });
  return () => {
    if (!s) throw new Error("the suite's sandbox is made in before(): use it inside a test");
    return s;
  };
}

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { ClientChannel } from "../../../../../sidecar/kernel/handlers/types.js";
import { ClientPrincipals } from "../../../../../sidecar/kernel/principals/clientPrincipals.js";
import { tempDir } from "../../../../support/kernelProcess.js";

const channel = (): ClientChannel => ({ notify: () => {}, request: async () => ({ decision: "deny", reason: "no" }) as never });

describe("ClientPrincipals (issue 24)", () => {
  const root = fs.realpathSync(tempDir("principals"));
  const served = path.join(root, "a");
  fs.mkdirSync(served);
  fs.mkdirSync(path.join(root, "b"));
  fs.symlinkSync(served, path.join(root, "link-to-a"));
  const principals = new ClientPrincipals({ workspaceRoot: served, journalPath: path.join(root, "j.sqlite") });

  it("a kernel serves one folder: a client of another folder is refused with what to do; a link to the folder is the folder", () => {
    assert.throws(
      () => principals.admit(channel(), "c1", { kind: "terminal", folder: path.join(root, "b"), asksPerson: false }),
      /refused: this kernel serves the folder .*\/a \(journal .*j\.sqlite\), not .*\/b; a kernel works in one folder only\. Use your folder's own journal/,
    );
    const linked = channel();
    principals.admit(linked, "c2", { kind: "window", folder: path.join(root, "link-to-a"), asksPerson: true });
    assert.deepEqual(principals.of(linked), { kind: "window", clientId: "c2", asksPerson: true });
  });

  it("a client that names no principal is never one that can ask a person", () => {
    const silent = channel();
    principals.admit(silent, "c3", undefined);
    assert.deepEqual(principals.of(silent), { kind: "unnamed", clientId: "c3", asksPerson: false });
  });

  it("following takes over approvals only for a reloaded window: a window whose starter window has gone", () => {
    const starter = channel();
    const reloaded = channel();
    const terminal = channel();
    principals.admit(starter, "w1", { kind: "window", folder: served, asksPerson: true });
    principals.admit(reloaded, "w2", { kind: "window", folder: served, asksPerson: true });
    principals.admit(terminal, "t1", { kind: "terminal", folder: served, asksPerson: false });
    assert.equal(principals.mayTakeOver(starter, reloaded), false, "the starter is still connected");
    principals.left(starter);
    assert.equal(principals.mayTakeOver(starter, terminal), false, "a terminal only watches");
    assert.equal(principals.mayTakeOver(starter, reloaded), true);
  });
});

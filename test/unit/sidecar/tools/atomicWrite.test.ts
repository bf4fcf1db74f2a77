// The install steps of atomicWrite that no race test can hit on demand (issue 11 item 7): the
// check of the inode an exchange displaced, and the parent folder's fsync after the swap. Both are
// observed at real seams: the workspace's syscall bindings (wrapped to let another writer in at the
// exact moment) and node:fs's fsyncSync (spied on, still calling through to the kernel).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import { AnchoredWorkspace } from "../../../../sidecar/tools/anchoredFs.js";
import { currentTarget, installAtomically, openParent, type ExpectedTarget } from "../../../../sidecar/tools/atomicWrite.js";
import { resolvePath } from "../../../../sidecar/tools/fileAccess.js";
import { Errno, RENAME_EXCHANGE, type LinuxLibc } from "../../../../sidecar/tools/linuxLibc.js";
import type { WorkspacePath } from "../../../../sidecar/tools/workspacePath.js";

const MAX = 1 << 20;
let root: string;
let ws: AnchoredWorkspace;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-atomic-"));
  fs.mkdirSync(path.join(root, "dir"));
  fs.writeFileSync(path.join(root, "dir", "f.txt"), "old\n");
  ws = AnchoredWorkspace.open(root);
});
afterEach(() => {
  ws.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function target(rel: string): { p: WorkspacePath; expected: ExpectedTarget } {
  const r = resolvePath(ws, rel);
  if (!r.ok) throw new Error(r.message);
  const parent = openParent(ws, r.path, false);
  if (!parent.ok) throw new Error(parent.message);
  try {
    const now = currentTarget(ws, parent.dir, r.path, MAX);
    if (!now.ok) throw new Error(now.message);
    return { p: r.path, expected: now.target };
  } finally {
    ws.release(parent.dir);
  }
}

const temps = (dir: string) => fs.readdirSync(dir).filter((n) => n.includes(".hearth-"));

describe("atomicWrite install steps (harness #17)", () => {
  test("issue 11 item 7: a target replaced between the identity check and the exchange is put back, never deleted (harness #17)", (t) => {
    const native = ws.native;
    if (!native) return t.skip("no renameat2 binding on this system: the exchange path does not run");
    const { p, expected } = target("dir/f.txt");
    const file = path.join(root, "dir", "f.txt");
    // The other writer lands in the one window no re-check before the swap can close: after the
    // identity check, before renameat2(RENAME_EXCHANGE). Only the displaced-inode check sees it.
    const racing: LinuxLibc = {
      ...native,
      renameat2(dirFd, from, to, flags) {
        if (flags === RENAME_EXCHANGE && to === "f.txt" && !fs.readFileSync(file, "utf8").startsWith("other")) {
          fs.writeFileSync(`${file}.other`, "other writer\n");
          fs.renameSync(`${file}.other`, file);
        }
        return native.renameat2(dirFd, from, to, flags);
      },
    };
    Object.defineProperty(ws, "native", { get: () => racing });
    const out = installAtomically(ws, p, Buffer.from("mine\n"), expected, MAX);
    assert.equal(out.ok, false);
    assert.match(out.message, /was replaced while the change was being installed; the other writer's file was left in place/);
    assert.equal(fs.readFileSync(file, "utf8"), "other writer\n", "the other writer's file survives");
    assert.deepEqual(temps(path.join(root, "dir")), [], "no temp is left behind");
  });

  test("a target replaced before the fallback rename (no RENAME_EXCHANGE) is refused and left in place (harness #17)", (t) => {
    const native = ws.native;
    if (!native) return t.skip("no renameat2 binding on this system: the seam below is the exchange call");
    const { p, expected } = target("dir/f.txt");
    const file = path.join(root, "dir", "f.txt");
    // A file system without RENAME_EXCHANGE (EINVAL) sends the install down the verify-then-rename
    // path; the other writer lands after the identity check, before that path's inode check.
    const noExchange: LinuxLibc = {
      ...native,
      renameat2(dirFd, from, to, flags) {
        if (flags !== RENAME_EXCHANGE) return native.renameat2(dirFd, from, to, flags);
        fs.writeFileSync(`${file}.other`, "other writer\n");
        fs.renameSync(`${file}.other`, file);
        return { ok: false, errno: Errno.EINVAL };
      },
    };
    Object.defineProperty(ws, "native", { get: () => noExchange });
    const out = installAtomically(ws, p, Buffer.from("mine\n"), expected, MAX);
    assert.equal(out.ok, false);
    assert.match(out.message, /^refused: `dir\/f\.txt` was replaced while the change was being installed$/);
    assert.equal(fs.readFileSync(file, "utf8"), "other writer\n", "the other writer's file survives");
    assert.deepEqual(temps(path.join(root, "dir")), [], "no temp is left behind");
  });

  for (const [what, rel] of [
    ["an existing file", "dir/f.txt"],
    ["a new file", "dir/new.txt"],
  ] as const) {
    test(`issue 11 item 7: installing ${what} fsyncs the parent folder after the swap and the temp's removal, before success (harness #17)`, (t) => {
      const dir = path.join(root, "dir");
      const dirIno = fs.statSync(dir).ino;
      const { p, expected } = target(rel);
      const synced: { dirIno: number | null; listing: string[] }[] = [];
      const realFsync = fs.fsyncSync;
      t.mock.method(fs, "fsyncSync", (fd: number) => {
        const st = fs.fstatSync(fd);
        synced.push({
          dirIno: st.isDirectory() ? st.ino : null,
          listing: st.isDirectory() && st.ino === dirIno ? fs.readdirSync(dir) : [],
        });
        realFsync(fd);
      });
      const out = installAtomically(ws, p, Buffer.from("new content\n"), expected, MAX);
      t.mock.restoreAll();
      assert.equal(out.ok, true, out.message);
      const last = synced.at(-1);
      assert.equal(last?.dirIno, dirIno, "the last fsync before success is the parent folder's");
      assert.ok(last.listing.includes(path.basename(rel)), "it runs after the new name is in place");
      assert.deepEqual(
        last.listing.filter((n) => n.includes(".hearth-")),
        [],
        "and after the displaced file's removal",
      );
      assert.ok(
        synced.slice(0, -1).some((s) => s.dirIno === null),
        "the temp's content was synced before it",
      );
    });
  }
});

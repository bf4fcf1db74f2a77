// Atomic install of new file content beneath the workspace descriptor (harness #17, #22):
// a sibling temp written and fsynced through the parent's descriptor, the target's identity
// re-verified, an atomic swap, the parent fsynced. Synchronous on purpose: one bounded blocking
// operation that a cancellation cannot interrupt halfway; it completes or rolls back.
import crypto from "node:crypto";
import fs from "node:fs";
import type { AnchoredWorkspace, DirHandle } from "./anchoredFs.js";
import { errnoOf } from "./anchoredFs.js";
import { Errno, O, RENAME_EXCHANGE, RENAME_NOREPLACE } from "./linuxLibc.js";
import { identityOf, kindName, readBounded, type FileIdentity } from "./fileAccess.js";
import { showPath, type WorkspacePath } from "./workspacePath.js";
import { errorMessage } from "../../shared/errors.js";

/** The target as the proposal saw it. */
export type ExpectedTarget = { existed: false } | { existed: true; identity: FileIdentity };

export type WriteOutcome = { ok: true; message: string } | { ok: false; message: string };

/** Reads the target's current identity (or absence) through `parent`; refuses non-regular targets. */
export function currentTarget(
  ws: AnchoredWorkspace,
  parent: DirHandle,
  p: WorkspacePath,
  maxBytes: number,
): { ok: true; target: ExpectedTarget; content?: Buffer; mode?: number } | { ok: false; message: string } {
  const name = p.parts[p.parts.length - 1]!;
  const r = ws.openAt(parent, [name], O.RDONLY);
  if (!r.ok) {
    if (r.errno === Errno.ENOENT) return { ok: true, target: { existed: false } };
    return { ok: false, message: ws.describe(p, r.errno) };
  }
  try {
    if (!r.stat.isFile()) {
      const what = r.stat.isDirectory() ? "a directory" : kindName(r.stat);
      return { ok: false, message: `refused: ${showPath(p.text)} is ${what}; only regular files can be written` };
    }
    if (r.stat.nlink > 1n) {
      return {
        ok: false,
        message: `refused: ${showPath(p.text)} has ${r.stat.nlink} hard links; replacing it would silently split them, so it is not written`,
      };
    }
    if (Number(r.stat.size) > maxBytes) {
      return {
        ok: false,
        message: `refused: ${showPath(p.text)} is ${r.stat.size} bytes, over the ${maxBytes}-byte bound for files the tools rewrite`,
      };
    }
    const { bytes } = readBounded(r.fd, maxBytes, Number(r.stat.size));
    return { ok: true, target: { existed: true, identity: identityOf(r.stat, bytes) }, content: bytes, mode: Number(r.stat.mode) & 0o7777 };
  } finally {
    fs.closeSync(r.fd);
  }
}

/** Opens the parent directory of `p`, creating missing directories beneath the folder if asked. */
export function openParent(
  ws: AnchoredWorkspace,
  p: WorkspacePath,
  create: boolean,
): { ok: true; dir: DirHandle } | { ok: false; message: string; missing: boolean } {
  let dir = ws.root;
  const parents = p.parts.slice(0, -1);
  for (const part of parents) {
    let next = ws.openDir(dir, [part]);
    if (!next.ok && next.errno === Errno.ENOENT && create) {
      mkdirBeneath(ws, dir, part);
      fs.fsyncSync(dir.fd);
      next = ws.openDir(dir, [part]);
    }
    ws.release(dir);
    if (!next.ok) return { ok: false, message: ws.describe(p, next.errno), missing: next.errno === Errno.ENOENT };
    dir = next.dir;
  }
  return { ok: true, dir };
}

function mkdirBeneath(ws: AnchoredWorkspace, dir: DirHandle, name: string): void {
  const native = ws.native;
  if (native) native.mkdirat(dir.fd, name, 0o755);
  else fs.mkdirSync(dir.child(name), { mode: 0o755 });
  // A failure shows up as the open that follows; EEXIST from a racing creator is fine.
}

/**
 * Installs `content` at `p` if the target still matches `expected`. On any failure the old
 * file is intact and the temp is gone; success is reported only after the parent is synced.
 */
export function installAtomically(
  ws: AnchoredWorkspace,
  p: WorkspacePath,
  content: Buffer,
  expected: ExpectedTarget,
  maxBytes: number,
): WriteOutcome {
  const shown = showPath(p.text);
  const parent = openParent(ws, p, !expected.existed);
  if (!parent.ok) return parent;
  const dir = parent.dir;
  const name = p.parts[p.parts.length - 1]!;
  const tmp = tempName(name);
  let tmpExists = false;
  try {
    const now = currentTarget(ws, dir, p, maxBytes);
    if (!now.ok) return now;
    const drift = describeDrift(shown, expected, now.target);
    if (drift) return { ok: false, message: drift };

    const created = ws.openAt(dir, [tmp], O.WRONLY | O.CREAT | O.EXCL, now.mode ?? 0o644);
    if (!created.ok)
      return { ok: false, message: `${shown} was not written: the temporary file could not be created (${ws.describe(p, created.errno)})` };
    tmpExists = true;
    try {
      writeAll(created.fd, content);
      if (now.mode !== undefined) fs.fchmodSync(created.fd, now.mode);
      fs.fsyncSync(created.fd);
    } finally {
      fs.closeSync(created.fd);
    }

    const installed = expected.existed ? swapVerified(ws, dir, tmp, name, expected.identity, shown) : installNew(ws, dir, tmp, name, shown);
    if (!installed.ok) return installed;
    tmpExists = installed.tmpStillExists;
    if (tmpExists) removeTemp(ws, dir, tmp);
    tmpExists = false;
    fs.fsyncSync(dir.fd);
    return { ok: true, message: `wrote ${content.length} bytes to ${shown}` };
  } catch (e) {
    return { ok: false, message: `${shown} was not written: ${ioReason(e)}; the previous content is unchanged` };
  } finally {
    if (tmpExists) removeTemp(ws, dir, tmp);
    ws.release(dir);
  }
}

function describeDrift(shown: string, expected: ExpectedTarget, now: ExpectedTarget): string | null {
  const redo = "read it again and propose the change anew";
  if (expected.existed && !now.existed) return `refused: ${shown} was deleted after the change was proposed; ${redo}`;
  if (!expected.existed && now.existed) return `refused: ${shown} was created by someone else after the change was proposed; ${redo}`;
  if (expected.existed && now.existed) {
    const a = expected.identity;
    const b = now.identity;
    if (a.ino !== b.ino || a.dev !== b.dev || a.size !== b.size || a.sha256 !== b.sha256) {
      return `refused: ${shown} changed after the change was proposed (it was replaced or edited); ${redo}`;
    }
  }
  return null;
}

type Installed = { ok: true; tmpStillExists: boolean } | { ok: false; message: string };

/** Exchanges temp and target, then checks the displaced file is the proposed one; else swaps back. */
function swapVerified(ws: AnchoredWorkspace, dir: DirHandle, tmp: string, name: string, expected: FileIdentity, shown: string): Installed {
  const native = ws.native;
  const exchanged = native?.renameat2(dir.fd, tmp, name, RENAME_EXCHANGE);
  if (exchanged?.ok) {
    const displaced = fs.lstatSync(dir.child(tmp), { bigint: true });
    if (displaced.isFile() && displaced.ino.toString() === expected.ino && displaced.dev.toString() === expected.dev) {
      return { ok: true, tmpStillExists: true }; // the temp name now holds the old file
    }
    native!.renameat2(dir.fd, tmp, name, RENAME_EXCHANGE); // put back what was there
    return {
      ok: false,
      message: `refused: ${shown} was replaced while the change was being installed; the other writer's file was left in place`,
    };
  }
  // No renameat2 (or a file system without RENAME_EXCHANGE): verify, then rename over. The
  // window between the two lookups is documented in docs/tools.md.
  const displaced = fs.lstatSync(dir.child(name), { bigint: true });
  if (!displaced.isFile() || displaced.ino.toString() !== expected.ino || displaced.dev.toString() !== expected.dev) {
    return { ok: false, message: `refused: ${shown} was replaced while the change was being installed` };
  }
  fs.renameSync(dir.child(tmp), dir.child(name));
  return { ok: true, tmpStillExists: false };
}

function installNew(ws: AnchoredWorkspace, dir: DirHandle, tmp: string, name: string, shown: string): Installed {
  const native = ws.native;
  const r = native?.renameat2(dir.fd, tmp, name, RENAME_NOREPLACE);
  if (r?.ok) return { ok: true, tmpStillExists: false };
  if (r && r.errno === Errno.EEXIST) {
    return { ok: false, message: `refused: ${shown} was created by someone else while the change was being installed` };
  }
  try {
    fs.linkSync(dir.child(tmp), dir.child(name)); // link(2) never replaces: EEXIST if it exists
  } catch (e) {
    if (errnoOf(e) === Errno.EEXIST)
      return { ok: false, message: `refused: ${shown} was created by someone else while the change was being installed` };
    throw e;
  }
  return { ok: true, tmpStillExists: true };
}

export function removeTemp(ws: AnchoredWorkspace, dir: DirHandle, tmp: string): void {
  const native = ws.native;
  if (native) native.unlinkat(dir.fd, tmp, false);
  else fs.rmSync(dir.child(tmp), { force: true });
}

function writeAll(fd: number, content: Buffer): void {
  let off = 0;
  while (off < content.length) off += fs.writeSync(fd, content, off, content.length - off);
}

export function tempName(name: string): string {
  const stem = Buffer.from(name)
    .subarray(0, 200)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
  return `.${stem}.hearth-${crypto.randomBytes(6).toString("hex")}.tmp`;
}

export function ioReason(e: unknown): string {
  switch (errnoOf(e)) {
    case Errno.ENOSPC:
    case Errno.EDQUOT:
      return "the disk is full (or over quota)";
    case Errno.EFBIG:
      return "the file is larger than this process may write (file size limit)";
    case Errno.EIO:
      return "an I/O error occurred (EIO)";
    default:
      return errorMessage(e);
  }
}

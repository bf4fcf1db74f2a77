// Undo of a turn's writes (issue 14 item 5), through the same anchored descriptors as the writes:
// a file is put back to its bytes before the turn, or a file the turn created is removed, only if
// it still holds exactly what the turn left (its sha-256); otherwise it is refused and untouched.
// Paths are re-parsed and opened beneath the workspace descriptor, never followed through links.
import fs from "node:fs";
import type { AnchoredWorkspace, DirHandle } from "./anchoredFs.js";
import { currentTarget, installAtomically, ioReason, openParent, removeTemp, tempName } from "./atomicWrite.js";
import { resolvePath, type FileIdentity } from "./fileAccess.js";
import { Errno, RENAME_NOREPLACE } from "./linuxLibc.js";
import { showPath, type WorkspacePath } from "./workspacePath.js";

export type RestoreOutcome = { ok: true; message: string } | { ok: false; message: string };

export type FileNow =
  | { ok: true; existed: false }
  | { ok: true; existed: true; sha256: string; content: Buffer }
  | { ok: false; message: string };

/** What the turn left in the file: the identity it must still have. */
export interface LeftByTurn {
  readonly path: string;
  readonly sha256: string;
}

export class FileRestorer {
  constructor(
    private readonly ws: AnchoredWorkspace,
    private readonly maxBytes: number,
  ) {}

  /** Puts `content` back at `left.path` if the file still holds what the turn left. */
  restore(left: LeftByTurn, content: Buffer): RestoreOutcome {
    return this.withUnchanged(left, (p, identity) => {
      const r = installAtomically(this.ws, p, content, { existed: true, identity }, Math.max(this.maxBytes, content.length));
      return r.ok ? { ok: true, message: `restored ${showPath(p.text)} to its ${content.length} bytes before the turn` } : r;
    });
  }

  /** Removes the file the turn created at `left.path` if it still holds what the turn left. */
  remove(left: LeftByTurn): RestoreOutcome {
    return this.withUnchanged(left, (p, identity) => {
      const parent = openParent(this.ws, p, false);
      if (!parent.ok) return parent;
      try {
        return removeVerified(this.ws, parent.dir, p, identity);
      } catch (e) {
        return { ok: false, message: `${showPath(p.text)} was not removed: ${ioReason(e)}` };
      } finally {
        this.ws.release(parent.dir);
      }
    });
  }

  /**
   * What is at `path` now (issue 29: a rewind keeps the bytes it replaces, so it can be undone): absent,
   * or its hash and bytes; refused like a write (outside the folder, a link, a directory, over the bound).
   */
  read(path: string): FileNow {
    const parsed = resolvePath(this.ws, path);
    if (!parsed.ok) return parsed;
    const p = parsed.path;
    if (p.parts.length === 0) return { ok: false, message: `refused: ${showPath(p.text)} names the workspace folder, not a file` };
    const parent = openParent(this.ws, p, false);
    if (!parent.ok) return parent.missing ? { ok: true, existed: false } : parent;
    try {
      const now = currentTarget(this.ws, parent.dir, p, this.maxBytes);
      if (!now.ok) return now;
      if (!now.target.existed) return { ok: true, existed: false };
      return { ok: true, existed: true, sha256: now.target.identity.sha256, content: now.content! };
    } finally {
      this.ws.release(parent.dir);
    }
  }

  /** Creates `path` with `content` again (the undo of a rewind that removed it), only if nothing is there now. */
  recreate(path: string, content: Buffer): RestoreOutcome {
    const parsed = resolvePath(this.ws, path);
    if (!parsed.ok) return parsed;
    const p = parsed.path;
    const r = installAtomically(this.ws, p, content, { existed: false }, Math.max(this.maxBytes, content.length));
    return r.ok ? { ok: true, message: `created ${showPath(p.text)} again with its ${content.length} bytes` } : r;
  }

  private withUnchanged(left: LeftByTurn, act: (p: WorkspacePath, identity: FileIdentity) => RestoreOutcome): RestoreOutcome {
    const parsed = resolvePath(this.ws, left.path);
    if (!parsed.ok) return parsed;
    const p = parsed.path;
    if (p.parts.length === 0) return { ok: false, message: `refused: ${showPath(p.text)} names the workspace folder, not a file` };
    const shown = showPath(p.text);
    const parent = openParent(this.ws, p, false);
    if (!parent.ok)
      return parent.missing ? { ok: false, message: `refused: ${shown} was deleted since the turn wrote it; nothing was changed` } : parent;
    let identity: FileIdentity;
    try {
      const now = currentTarget(this.ws, parent.dir, p, this.maxBytes);
      if (!now.ok) return now;
      if (!now.target.existed) return { ok: false, message: `refused: ${shown} was deleted since the turn wrote it; nothing was changed` };
      identity = now.target.identity;
    } finally {
      this.ws.release(parent.dir);
    }
    if (identity.sha256 !== left.sha256) {
      return {
        ok: false,
        message: `refused: ${shown} changed since the turn wrote it; it was left as it is (undo only puts back files that still hold what the turn wrote)`,
      };
    }
    return act(p, identity);
  }
}

/** Moves the file aside under a temp name, checks it is the verified one, then unlinks it; else puts it back. */
function removeVerified(ws: AnchoredWorkspace, dir: DirHandle, p: WorkspacePath, expected: FileIdentity): RestoreOutcome {
  const shown = showPath(p.text);
  const name = p.parts[p.parts.length - 1]!;
  const native = ws.native;
  const replaced: RestoreOutcome = {
    ok: false,
    message: `refused: ${shown} was replaced while it was being removed; the other writer's file was left in place`,
  };
  if (native) {
    const tmp = tempName(name);
    const moved = native.renameat2(dir.fd, name, tmp, RENAME_NOREPLACE);
    if (!moved.ok) {
      if (moved.errno === Errno.ENOENT)
        return { ok: false, message: `refused: ${shown} was deleted since the turn wrote it; nothing was changed` };
      return { ok: false, message: `${shown} was not removed: ${ws.describe(p, moved.errno)}` };
    }
    const displaced = fs.lstatSync(dir.child(tmp), { bigint: true });
    if (!displaced.isFile() || displaced.ino.toString() !== expected.ino || displaced.dev.toString() !== expected.dev) {
      // Put back what was there, never over a file someone created under the name meanwhile.
      const back = native.renameat2(dir.fd, tmp, name, RENAME_NOREPLACE);
      if (!back.ok)
        return {
          ok: false,
          message:
            `refused: ${shown} was replaced while it was being removed, and the name was taken again; the replaced file is ` +
            `kept as ${showPath(tmp)} beside it`,
        };
      return replaced;
    }
    removeTemp(ws, dir, tmp);
  } else {
    // No descriptor-relative rename: verify, then unlink by path (the same window docs/tools.md names for writes).
    const now = fs.lstatSync(dir.child(name), { bigint: true });
    if (!now.isFile() || now.ino.toString() !== expected.ino || now.dev.toString() !== expected.dev) return replaced;
    fs.rmSync(dir.child(name));
  }
  fs.fsyncSync(dir.fd);
  return { ok: true, message: `removed ${shown}, which the turn had created` };
}

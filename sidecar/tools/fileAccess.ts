// Opening and reading one workspace entry after the anchored open: the type checks that keep
// FIFOs, sockets, devices and hardlinked files out (harness #9), bounded reads, identities.
import crypto from "node:crypto";
import fs from "node:fs";
import { O } from "./linuxLibc.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { parseWorkspacePath, showPath, type WorkspacePath } from "./workspacePath.js";

export type Refusal = { ok: false; message: string };
export type Entry = { ok: true; fd: number; stat: fs.BigIntStats; kind: "file" | "dir" };

/** What a proposal records about a target, re-verified before the install (harness #17). */
export interface FileIdentity {
  readonly dev: string;
  readonly ino: string;
  readonly size: number;
  readonly sha256: string;
}

export function kindName(st: fs.BigIntStats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file or directory";
}

export function resolvePath(ws: AnchoredWorkspace, text: string): { ok: true; path: WorkspacePath } | Refusal {
  return parseWorkspacePath(text, ws.identity.canonicalPath);
}

/** Opens a regular file or directory; anything else is closed and refused. */
export function openEntry(ws: AnchoredWorkspace, p: WorkspacePath): Entry | Refusal {
  const r = ws.openAt(ws.root, p.parts, p.mustBeDirectory ? O.RDONLY | O.DIRECTORY : O.RDONLY);
  if (!r.ok) return { ok: false, message: ws.describe(p, r.errno) };
  const kind = r.stat.isFile() ? "file" : r.stat.isDirectory() ? "dir" : null;
  if (kind === null) {
    fs.closeSync(r.fd);
    return { ok: false, message: `refused: ${showPath(p.text)} is ${kindName(r.stat)}; the tools read only regular files and directories` };
  }
  return { ok: true, fd: r.fd, stat: r.stat, kind };
}

/** Opens a regular file for reading, refusing directories and hardlinked files. */
export function openFileForRead(ws: AnchoredWorkspace, p: WorkspacePath): Entry | Refusal {
  const e = openEntry(ws, p);
  if (!e.ok) return e;
  const refuse = (message: string): Refusal => {
    fs.closeSync(e.fd);
    return { ok: false, message };
  };
  if (e.kind === "dir") return refuse(`refused: ${showPath(p.text)} is a directory; use list_dir to see its entries`);
  if (e.stat.nlink > 1n) {
    return refuse(
      `refused: ${showPath(p.text)} has ${e.stat.nlink} hard links; a hardlinked file may be shared with a file outside the workspace, so it is not read`,
    );
  }
  return e;
}

/**
 * Reads at most `max` bytes from the start; `truncated` when there is more. `sizeHint` (the
 * fstat size) sizes the first buffer; a file that grew meanwhile is still read up to the bound.
 */
export function readBounded(fd: number, max: number, sizeHint = 64 << 10): { bytes: Buffer; truncated: boolean } {
  const chunks: Buffer[] = [];
  let total = 0;
  let want = Math.min(Math.max(sizeHint, 0), max) + 1; // +1 detects a file longer than the bound
  for (;;) {
    const buf = Buffer.allocUnsafe(want);
    let n = 0;
    while (n < buf.length) {
      const got = fs.readSync(fd, buf, n, buf.length - n, total + n);
      if (got === 0) break;
      n += got;
    }
    chunks.push(buf.subarray(0, n));
    total += n;
    if (n < buf.length || total > max) break;
    want = Math.min(Math.max(want, 64 << 10), max + 1 - total);
  }
  const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return { bytes: all.subarray(0, Math.min(total, max)), truncated: total > max };
}

export function identityOf(st: fs.BigIntStats, bytes: Buffer): FileIdentity {
  return { dev: st.dev.toString(), ino: st.ino.toString(), size: Number(st.size), sha256: sha256(bytes) };
}

export function sha256(bytes: Buffer | string): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** Text unless it has a NUL byte or is not valid UTF-8; `partial` tolerates a cut last character. */
export function decodeText(bytes: Buffer, partial = false): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return null;
  }
}

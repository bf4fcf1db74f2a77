// Reads a small text file the kernel itself consults (the workspace's .hearth/rules.json, its
// instruction files: issue 27) through the workspace descriptor, under the same rules as read_file:
// no links followed, no hardlinked file, bounded. Absent is not an error: most workspaces have none.
import fs from "node:fs";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { currentTarget, installAtomically, ioReason, openParent } from "./atomicWrite.js";
import { decodeText, openFileForRead, readBounded, resolvePath } from "./fileAccess.js";
import { Errno, O } from "./linuxLibc.js";
import { showPath } from "./workspacePath.js";

export type WorkspaceText = { ok: true; text: string | null } | { ok: false; message: string };

/** The first `maxBytes` of a file: `bytes` is its whole size, `cut` when more was left unread. */
export type WorkspaceTextHead = { ok: true; text: string | null; bytes: number; cut: boolean } | { ok: false; message: string };

/** The whole file, or a refusal when it is larger than `maxBytes` (a cut JSON file would read wrong). */
export function readWorkspaceText(ws: AnchoredWorkspace, relPath: string, maxBytes: number): WorkspaceText {
  const head = readWorkspaceTextHead(ws, relPath, maxBytes);
  if (!head.ok || head.text === null) return head.ok ? { ok: true, text: null } : head;
  if (head.cut) return { ok: false, message: `${showPath(relPath)} is larger than ${maxBytes} bytes` };
  return { ok: true, text: head.text };
}

/** Up to `maxBytes` of a text file, cut at a character boundary; absent gives text null. */
export function readWorkspaceTextHead(ws: AnchoredWorkspace, relPath: string, maxBytes: number): WorkspaceTextHead {
  const p = resolvePath(ws, relPath);
  if (!p.ok) return p;
  const probe = ws.openAt(ws.root, p.path.parts, O.RDONLY);
  if (!probe.ok && probe.errno === Errno.ENOENT) return { ok: true, text: null, bytes: 0, cut: false };
  if (probe.ok) fs.closeSync(probe.fd);
  const f = openFileForRead(ws, p.path);
  if (!f.ok) return f;
  try {
    const { bytes, truncated } = readBounded(f.fd, maxBytes, Number(f.stat.size));
    const text = decodeText(bytes, truncated);
    if (text === null) return { ok: false, message: `${showPath(relPath)} is not UTF-8 text` };
    return { ok: true, text, bytes: Math.max(Number(f.stat.size), bytes.length), cut: truncated };
  } finally {
    fs.closeSync(f.fd);
  }
}

/**
 * Rewrites a small text file the kernel keeps (a rule written from an approval card, issue 27): `update`
 * gets the current text (null when absent) and returns the new text, or null to leave it; it may throw
 * to refuse, with its message. The install is atomic and refused if the file changed meanwhile.
 */
export type WorkspaceEdit = (
  relPath: string,
  maxBytes: number,
  update: (current: string | null) => string | null,
) => { ok: true } | { ok: false; message: string };

export function editWorkspaceText(
  ws: AnchoredWorkspace,
  relPath: string,
  maxBytes: number,
  update: (current: string | null) => string | null,
): { ok: true } | { ok: false; message: string } {
  const p = resolvePath(ws, relPath);
  if (!p.ok) return p;
  const parent = openParent(ws, p.path, false);
  let expected: Parameters<typeof installAtomically>[3] = { existed: false };
  let current: string | null = null;
  if (parent.ok) {
    try {
      const now = currentTarget(ws, parent.dir, p.path, maxBytes);
      if (!now.ok) return now;
      expected = now.target;
      current = now.content ? decodeText(now.content) : null;
      if (now.content && current === null) return { ok: false, message: `${showPath(relPath)} is not UTF-8 text` };
    } finally {
      ws.release(parent.dir);
    }
  } else if (!parent.missing) return parent;
  let next: string | null;
  try {
    next = update(current);
  } catch (e) {
    return { ok: false, message: ioReason(e) };
  }
  if (next === null) return { ok: true };
  const written = installAtomically(ws, p.path, Buffer.from(next), expected, maxBytes);
  return written.ok ? { ok: true } : written;
}

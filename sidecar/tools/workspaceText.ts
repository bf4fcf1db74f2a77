// Reads a small text file the kernel itself consults (the workspace's .hearth/rules.json, its
// instruction files: issue 27) through the workspace descriptor, under the same rules as read_file:
// no links followed, no hardlinked file, bounded. Absent is not an error: most workspaces have none.
import fs from "node:fs";
import type { AnchoredWorkspace } from "./anchoredFs.js";
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

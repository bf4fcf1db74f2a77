// Reads a small text file the kernel itself consults (the workspace's .hearth/rules.json, issue 27)
// through the workspace descriptor, under the same rules as read_file: no links followed, no
// hardlinked file, bounded. Absent is not an error: most workspaces have no such file.
import fs from "node:fs";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { decodeText, openFileForRead, readBounded, resolvePath } from "./fileAccess.js";
import { Errno, O } from "./linuxLibc.js";
import { showPath } from "./workspacePath.js";

export type WorkspaceText = { ok: true; text: string | null } | { ok: false; message: string };

export function readWorkspaceText(ws: AnchoredWorkspace, relPath: string, maxBytes: number): WorkspaceText {
  const p = resolvePath(ws, relPath);
  if (!p.ok) return p;
  const probe = ws.openAt(ws.root, p.path.parts, O.RDONLY);
  if (!probe.ok && probe.errno === Errno.ENOENT) return { ok: true, text: null };
  if (probe.ok) fs.closeSync(probe.fd);
  const f = openFileForRead(ws, p.path);
  if (!f.ok) return f;
  try {
    const { bytes, truncated } = readBounded(f.fd, maxBytes, Number(f.stat.size));
    if (truncated) return { ok: false, message: `${showPath(relPath)} is larger than ${maxBytes} bytes` };
    const text = decodeText(bytes);
    return text === null ? { ok: false, message: `${showPath(relPath)} is not UTF-8 text` } : { ok: true, text };
  } finally {
    fs.closeSync(f.fd);
  }
}

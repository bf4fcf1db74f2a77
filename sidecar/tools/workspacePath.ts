// Textual checks made before any open (harness #9). They are not the boundary — the descriptor
// walk is — but they turn the obvious escapes into clear refusals instead of errno codes.
export const NAME_MAX_BYTES = 255;
export const PATH_MAX_BYTES = 4096;

export interface WorkspacePath {
  /** As the caller wrote it, for messages. */
  readonly text: string;
  /** Components beneath the workspace folder; empty for the folder itself. */
  readonly parts: readonly string[];
  /** A trailing slash was given: the target must be a directory. */
  readonly mustBeDirectory: boolean;
}

export type ParsedPath = { ok: true; path: WorkspacePath } | { ok: false; message: string };

/** Shows a user-supplied path in a message: bounded, NUL and control characters made visible. */
export function showPath(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this makes visible
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return "`" + (visible.length > 120 ? visible.slice(0, 117) + "…" : visible) + "`";
}

export function parseWorkspacePath(text: string, root: string): ParsedPath {
  const shown = showPath(text);
  const rule = `paths are relative to ${root} and may not contain \`..\``;
  const refuse = (why: string): ParsedPath => ({ ok: false, message: `refused: ${shown} ${why}` });
  if (text.length === 0) return refuse(`is empty; give a path relative to ${root}, or \`.\` for the folder itself`);
  if (text.includes("\0")) return refuse("contains a NUL byte; remove it");
  if (/\p{Surrogate}/u.test(text)) return refuse("is not valid Unicode (a lone surrogate); send the name as UTF-8 text");
  if (text.includes("\\")) return refuse("contains a backslash; separate components with `/`");
  if (text.startsWith("/") || /^[A-Za-z]:/.test(text)) return refuse(`is absolute; ${rule}`);
  if (text === "~" || text.startsWith("~")) return refuse(`refers to a home directory; ${rule}`);
  if (Buffer.byteLength(text) > PATH_MAX_BYTES) return refuse(`is longer than ${PATH_MAX_BYTES} bytes; use a shorter path`);
  const mustBeDirectory = text.endsWith("/");
  const raw = (mustBeDirectory ? text.slice(0, -1) : text).split("/");
  const parts: string[] = [];
  for (const part of raw) {
    if (part === "..") return refuse(`leaves the workspace folder; ${rule}`);
    if (part === "") return refuse("has an empty component (`//`); remove the doubled slash");
    if (part === ".") continue; // names the directory it is in: harmless, dropped
    if (Buffer.byteLength(part) > NAME_MAX_BYTES)
      return refuse(`has a component longer than ${NAME_MAX_BYTES} bytes; no file can have that name`);
    parts.push(part);
  }
  return { ok: true, path: { text, parts, mustBeDirectory } };
}

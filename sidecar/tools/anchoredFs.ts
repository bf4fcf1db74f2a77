// The workspace folder held as a directory descriptor; every file the tools touch is opened
// beneath it without following a symlink (harness #9). Linux: openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS); where openat2 is missing or filtered (ENOSYS,
// EPERM), a component walk of /proc/self/fd/<dirfd>/<name> with O_NOFOLLOW. Elsewhere a weaker
// lstat-then-open walk (docs/tools.md says what it does not guarantee).
import fs from "node:fs";
import path from "node:path";
import { Errno, O, linuxLibc, type LinuxLibc, type SysResult } from "./linuxLibc.js";
import { showPath, type WorkspacePath } from "./workspacePath.js";

export type ResolverKind = "openat2" | "procfd" | "pathwalk";

/** The folder's identity for the authority snapshot. */
export interface WorkspaceIdentity {
  readonly canonicalPath: string;
  readonly dev: string;
  readonly ino: string;
}

/** A directory held open; `child(name)` names an entry through the descriptor where possible. */
export interface DirHandle {
  readonly fd: number;
  child(name: string): string;
}

export type Opened = { ok: true; fd: number; stat: fs.BigIntStats } | { ok: false; errno: number };

const ERRNO_BY_CODE: Record<string, number> = {
  ENOENT: Errno.ENOENT,
  ELOOP: Errno.ELOOP,
  ENOTDIR: Errno.ENOTDIR,
  EACCES: Errno.EACCES,
  EPERM: Errno.EPERM,
  EXDEV: Errno.EXDEV,
  ENAMETOOLONG: Errno.ENAMETOOLONG,
  EEXIST: Errno.EEXIST,
  EISDIR: Errno.EISDIR,
  ENOSPC: Errno.ENOSPC,
  EIO: Errno.EIO,
  ENXIO: Errno.ENXIO,
  EFBIG: Errno.EFBIG,
  EDQUOT: Errno.EDQUOT,
};

export function errnoOf(e: unknown): number {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined && ERRNO_BY_CODE[code]) || -1;
}

export class AnchoredWorkspace {
  private closed = false;

  private constructor(
    readonly rootFd: number,
    readonly identity: WorkspaceIdentity,
    readonly resolver: ResolverKind,
    private readonly libc: LinuxLibc | null,
  ) {}

  /** Opens the folder once; `resolver` forces a weaker mode (tests, diagnostics). */
  static open(root: string, opts: { resolver?: ResolverKind } = {}): AnchoredWorkspace {
    if (!path.isAbsolute(root)) throw new Error(`the workspace folder must be an absolute path, got ${showPath(root)}`);
    const canonicalPath = fs.realpathSync(root);
    const fd = fs.openSync(canonicalPath, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0));
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isDirectory()) {
      fs.closeSync(fd);
      throw new Error(`the workspace folder ${showPath(root)} is not a directory`);
    }
    const libc = linuxLibc();
    let resolver: ResolverKind = opts.resolver ?? (process.platform === "linux" ? "openat2" : "pathwalk");
    if (resolver === "openat2") {
      const probe = libc?.openat2(fd, ".", O.RDONLY | O.DIRECTORY, 0);
      if (probe?.ok) fs.closeSync(probe.value);
      else resolver = "procfd"; // no libc binding, ENOSYS (old kernel) or EPERM (seccomp filter)
    }
    if (resolver === "procfd" && !fs.existsSync(`/proc/self/fd/${fd}`)) resolver = "pathwalk";
    return new AnchoredWorkspace(fd, { canonicalPath, dev: st.dev.toString(), ino: st.ino.toString() }, resolver, libc);
  }

  get root(): DirHandle {
    return this.handle(this.rootFd, []);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.rootFd);
  }

  /** The libc bindings when the descriptor-relative calls can be used. */
  get native(): LinuxLibc | null {
    return this.resolver === "pathwalk" ? null : this.libc;
  }

  /**
   * Opens `parts` beneath the folder. Never follows a symlink; FIFOs open non-blocking so a
   * refusal cannot hang. The caller checks the type and closes the descriptor.
   */
  openAt(dir: DirHandle, parts: readonly string[], flags: number, mode = 0o644): Opened {
    if (this.closed) throw new Error("the workspace descriptor is closed");
    const full = flags | O.NOFOLLOW | O.NONBLOCK | O.NOCTTY;
    if (parts.length === 0) parts = ["."];
    const r = this.resolver === "openat2" ? this.openat2(dir.fd, parts, full, mode) : this.walk(dir, parts, full, mode);
    if (!r.ok) return { ok: false, errno: r.errno };
    return { ok: true, fd: r.value, stat: fs.fstatSync(r.value, { bigint: true }) };
  }

  /** Opens a directory beneath `dir` as a handle. */
  openDir(dir: DirHandle, parts: readonly string[]): { ok: true; dir: DirHandle } | { ok: false; errno: number } {
    const r = this.openAt(dir, parts, O.RDONLY | O.DIRECTORY);
    if (!r.ok) return { ok: false, errno: r.errno };
    return { ok: true, dir: this.handle(r.fd, [...this.partsOf(dir), ...parts]) };
  }

  private openat2(dirFd: number, parts: readonly string[], flags: number, mode: number): SysResult {
    // openat2 answers EAGAIN when a rename raced the lookup: retry a few times, then give up.
    for (let attempt = 0; ; attempt++) {
      const r = this.libc!.openat2(dirFd, parts.join("/"), flags, mode);
      if (r.ok || r.errno !== Errno.EAGAIN || attempt >= 8) return r;
    }
  }

  private walk(dir: DirHandle, parts: readonly string[], flags: number, mode: number): SysResult {
    let cur = dir;
    const opened: number[] = [];
    try {
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        const f = last ? flags : O.RDONLY | O.DIRECTORY | O.NOFOLLOW | O.NONBLOCK;
        const fd = this.openComponentOrExplain(cur, parts[i]!, f, mode);
        if (last) return { ok: true, value: fd };
        opened.push(fd);
        cur = this.handle(fd, [...this.partsOf(cur), parts[i]!]);
      }
      throw new Error("unreachable: empty component list");
    } catch (e) {
      return { ok: false, errno: errnoOf(e) };
    } finally {
      for (const fd of opened) {
        this.paths.delete(fd);
        fs.closeSync(fd);
      }
    }
  }

  /** O_NOFOLLOW|O_DIRECTORY on a symlink says ENOTDIR; report it as the link it is. */
  private openComponentOrExplain(dir: DirHandle, name: string, flags: number, mode: number): number {
    try {
      return this.openComponent(dir, name, flags, mode);
    } catch (e) {
      if (errnoOf(e) === Errno.ENOTDIR && isSymlink(dir.child(name))) throw Object.assign(new Error("symlink"), { code: "ELOOP" });
      throw e;
    }
  }

  private openComponent(dir: DirHandle, name: string, flags: number, mode: number): number {
    const p = dir.child(name);
    if (this.resolver === "pathwalk") {
      // Weaker: lstat and open are two lookups by path; the fstat comparison catches a swap of
      // the last component, not of a directory above it (docs/tools.md).
      // O_CREAT|O_EXCL (temp files) fails on any existing entry, links included: no lstat needed.
      if (flags & O.EXCL) return fs.openSync(p, toHostFlags(flags), mode);
      const before = fs.lstatSync(p, { bigint: true });
      if (before.isSymbolicLink()) throw Object.assign(new Error("symlink"), { code: "ELOOP" });
      const fd = fs.openSync(p, toHostFlags(flags), mode);
      const after = fs.fstatSync(fd, { bigint: true });
      if (after.ino !== before.ino || after.dev !== before.dev) {
        fs.closeSync(fd);
        throw Object.assign(new Error("swapped"), { code: "ELOOP" });
      }
      return fd;
    }
    return fs.openSync(p, flags, mode); // Linux values; libuv adds O_CLOEXEC itself
  }

  private readonly paths = new Map<number, readonly string[]>();

  private handle(fd: number, parts: readonly string[]): DirHandle {
    this.paths.set(fd, parts);
    if (this.resolver === "pathwalk") {
      const base = this.identity.canonicalPath;
      return { fd, child: (name) => path.join(base, ...parts, name) };
    }
    return { fd, child: (name) => `/proc/self/fd/${fd}/${name}` };
  }

  private partsOf(dir: DirHandle): readonly string[] {
    return this.paths.get(dir.fd) ?? [];
  }

  /** Releases a handle opened by `openDir` (never the root). */
  release(dir: DirHandle): void {
    if (dir.fd === this.rootFd) return;
    this.paths.delete(dir.fd);
    fs.closeSync(dir.fd);
  }

  /** A refusal message for an errno from resolving `p`. */
  describe(p: WorkspacePath, errno: number | undefined): string {
    const shown = showPath(p.text);
    const root = this.identity.canonicalPath;
    switch (errno) {
      case Errno.ENOENT:
        return `${shown} does not exist in ${root}; list the folder with list_dir to see what is there`;
      case Errno.ELOOP:
        return `refused: ${shown} is or passes through a symbolic link; Hearth never follows links in the workspace, use the link's target path inside ${root}`;
      case Errno.EXDEV:
        return `refused: ${shown} resolves outside the workspace folder ${root}`;
      case Errno.ENOTDIR:
        return `refused: a component of ${shown} is not a directory (or is a symbolic link)`;
      case Errno.EACCES:
      case Errno.EPERM:
        return `refused: ${shown} is not accessible (permission denied)`;
      case Errno.ENXIO:
        return `refused: ${shown} is a socket or a device; the tools read only regular files and directories`;
      case Errno.ENAMETOOLONG:
        return `refused: ${shown} is too long for the file system`;
      default:
        return `refused: ${shown} could not be opened (errno ${errno ?? "unknown"})`;
    }
  }
}

function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Our Linux flag values, translated for the host (the pathwalk resolver runs on macOS/Windows). */
function toHostFlags(flags: number): number {
  const c = fs.constants;
  const pairs: Array<[number, number | undefined]> = [
    [O.WRONLY, c.O_WRONLY],
    [O.CREAT, c.O_CREAT],
    [O.EXCL, c.O_EXCL],
    [O.NOCTTY, c.O_NOCTTY],
    [O.NONBLOCK, c.O_NONBLOCK],
    [O.DIRECTORY, c.O_DIRECTORY],
    [O.NOFOLLOW, c.O_NOFOLLOW],
  ];
  return pairs.reduce((acc, [ours, host]) => (flags & ours && host !== undefined ? acc | host : acc), 0);
}

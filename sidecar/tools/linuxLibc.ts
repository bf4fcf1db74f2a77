// Descriptor-relative system calls Node does not expose (openat2, renameat2, unlinkat, mkdirat),
// reached through koffi's prebuilt FFI. Loaded once, lazily; null where libc or the calls are
// missing, so the caller falls back to the /proc/self/fd walk (harness #9, #17).
import { createRequire } from "node:module";
import type Koffi from "koffi";

export const Errno = {
  EPERM: 1,
  ENOENT: 2,
  EIO: 5,
  ENXIO: 6,
  EAGAIN: 11,
  EACCES: 13,
  EEXIST: 17,
  EXDEV: 18,
  ENOTDIR: 20,
  EISDIR: 21,
  EINVAL: 22,
  EFBIG: 27,
  ENOSPC: 28,
  ENAMETOOLONG: 36,
  ENOSYS: 38,
  ELOOP: 40,
  EDQUOT: 122,
} as const;

/** Linux open(2) flags (generic values, shared by x86_64 and aarch64). */
export const O = {
  RDONLY: 0,
  WRONLY: 0o1,
  CREAT: 0o100,
  EXCL: 0o200,
  NOCTTY: 0o400,
  NONBLOCK: 0o4000,
  DIRECTORY: 0o200000,
  NOFOLLOW: 0o400000,
  CLOEXEC: 0o2000000,
} as const;

const RESOLVE_NO_MAGICLINKS = 0x02;
const RESOLVE_NO_SYMLINKS = 0x04;
const RESOLVE_BENEATH = 0x08;
const SYS_OPENAT2 = 437; // the same number on every Linux architecture Node ships for
export const RENAME_NOREPLACE = 1;
export const RENAME_EXCHANGE = 2;

/** A call's outcome: a descriptor/zero, or the errno it failed with. */
export type SysResult = { ok: true; value: number } | { ok: false; errno: number };

export interface LinuxLibc {
  /** openat2 beneath `dirFd`, never following any symlink or magic link. */
  openat2(dirFd: number, path: string, flags: number, mode: number): SysResult;
  renameat2(dirFd: number, from: string, to: string, flags: number): SysResult;
  unlinkat(dirFd: number, name: string, isDir: boolean): SysResult;
  mkdirat(dirFd: number, name: string, mode: number): SysResult;
}

let cached: LinuxLibc | null | undefined;

/** The bindings, or null off Linux/glibc. Never throws. */
export function linuxLibc(): LinuxLibc | null {
  if (cached !== undefined) return cached;
  cached = process.platform === "linux" ? tryLoad() : null;
  return cached;
}

function tryLoad(): LinuxLibc | null {
  try {
    // Loaded on demand: a platform without koffi's prebuilt binary still gets the /proc walk.
    const koffi = createRequire(import.meta.url)("koffi") as typeof Koffi;
    const libc = koffi.load("libc.so.6");
    const syscall = libc.func("long syscall(long, int, const char *, void *, size_t)");
    const renameat2 = libc.func("int renameat2(int, const char *, int, const char *, unsigned int)");
    const unlinkat = libc.func("int unlinkat(int, const char *, int)");
    const mkdirat = libc.func("int mkdirat(int, const char *, unsigned int)");
    const how = Buffer.alloc(24); // struct open_how { u64 flags; u64 mode; u64 resolve; }, reused: calls are synchronous
    const wrap = (r: number | bigint): SysResult => {
      const v = Number(r);
      return v < 0 ? { ok: false, errno: koffi.errno() } : { ok: true, value: v };
    };
    return {
      openat2(dirFd, path, flags, mode) {
        how.writeBigUInt64LE(BigInt(flags | O.CLOEXEC), 0);
        how.writeBigUInt64LE(BigInt(flags & O.CREAT ? mode : 0), 8); // EINVAL unless creating
        how.writeBigUInt64LE(BigInt(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS), 16);
        return wrap(syscall(SYS_OPENAT2, dirFd, path, how, how.length));
      },
      renameat2: (dirFd, from, to, flags) => wrap(renameat2(dirFd, from, dirFd, to, flags)),
      unlinkat: (dirFd, name, isDir) => wrap(unlinkat(dirFd, name, isDir ? 0x200 : 0)),
      mkdirat: (dirFd, name, mode) => wrap(mkdirat(dirFd, name, mode)),
    };
  } catch {
    return null;
  }
}

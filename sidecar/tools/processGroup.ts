// Runs one command as the leader of its own process group and guarantees that, when the call
// returns, the group is gone: on timeout or cancellation the whole group gets SIGTERM, then
// SIGKILL after a grace; background processes left after the leader exits are ended the same way
// (harness #14: the shell's drop guard kills its dedicated process group). A process that leaves
// the group (setsid) escapes this guard: the shell is not a sandbox (docs/tools.md).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { errorMessage } from "../../shared/errors.js";

export interface RunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly outputBytes: number;
  readonly signal: AbortSignal;
  readonly graceMs?: number;
}

export interface RunOutcome {
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly droppedBytes: { stdout: number; stderr: number };
  /** Why the group was terminated, or null when the command ended by itself. */
  readonly terminated: "timeout" | "cancelled" | null;
  /** Processes were still in the group after the leader exited and were terminated. */
  readonly leftoversKilled: boolean;
  readonly pid: number | undefined;
}

class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }
  text(): string {
    return new TextDecoder("utf-8").decode(Buffer.concat(this.chunks));
  }
}

/** Live (non-zombie) members of a process group, from /proc; null where /proc is missing. */
export function liveGroupMembers(pgid: number): number[] | null {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return null;
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name: state ppid pgrp ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") members.push(Number(name));
  }
  return members;
}

/** Zombies answer kill(0) but are dead: where /proc exists it decides. */
function groupAlive(pgid: number): boolean {
  const live = process.platform === "linux" ? liveGroupMembers(pgid) : null;
  if (live) return live.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // ESRCH: the group is already gone
  }
}

export function runInProcessGroup(opts: RunOptions): Promise<RunOutcome> {
  const grace = opts.graceMs ?? 2000;
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", opts.command], {
      cwd: opts.cwd,
      env: { ...opts.env },
      detached: true, // setsid(): a new session and process group led by the child
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pgid = child.pid;
    const out = new CappedBuffer(opts.outputBytes);
    const err = new CappedBuffer(opts.outputBytes);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    let terminated: RunOutcome["terminated"] = null;
    let leftoversKilled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const terminate = (why: "timeout" | "cancelled" | "leftovers"): void => {
      if (pgid === undefined) return;
      if (why === "leftovers") leftoversKilled = true;
      else if (terminated === null) terminated = why;
      signalGroup(pgid, "SIGTERM");
      killTimer ??= setTimeout(() => signalGroup(pgid, "SIGKILL"), grace);
    };
    const timer = setTimeout(() => terminate("timeout"), opts.timeoutMs);
    const onAbort = (): void => terminate("cancelled");
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener("abort", onAbort, { once: true });

    let detachTimer: NodeJS.Timeout | undefined;
    child.on("exit", () => {
      // The leader is gone; anything still in its group was started by the command.
      if (pgid !== undefined && groupAlive(pgid)) terminate(terminated ?? "leftovers");
      // A process that left the group (setsid) may still hold the pipes: stop reading after the
      // grace so the call returns; it is outside this guard (docs/tools.md).
      detachTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, grace + 1000);
    });
    let spawnError: Error | null = null;
    child.on("error", (e) => {
      spawnError = e;
    });
    child.on("close", (code, sig) => {
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort);
      if (detachTimer) clearTimeout(detachTimer);
      let polls = 0;
      const finish = (): void => {
        // Bounded: members that are zombies nobody reaps still answer kill(0).
        if (pgid !== undefined && groupAlive(pgid) && polls++ < 50) {
          signalGroup(pgid, "SIGKILL");
          setTimeout(finish, 20);
          return;
        }
        if (killTimer) clearTimeout(killTimer);
        resolve({
          exitCode: code,
          exitSignal: sig,
          stdout: out.text(),
          stderr: spawnError ? `${err.text()}${errorMessage(spawnError)}` : err.text(),
          droppedBytes: { stdout: out.dropped, stderr: err.dropped },
          terminated,
          leftoversKilled,
          pid: pgid,
        });
      };
      finish();
    });
  });
}

// CPU time of a process's main thread (Linux: /proc/PID/task/PID/schedstat, nanoseconds on the CPU).
// llama.cpp evaluates on libuv workers and its own threads, so the main thread's CPU time during a
// turn is the kernel's work outside native evaluation: rendering, tokenizing, the journal, the
// protocol (issue 32). Time on the CPU, not wall clock: other processes' load does not add to it.
// The kernel brings a running thread's figure up to date at scheduler ticks and at every switch: for
// a span with waits in it (a turn) it is exact; for a few milliseconds of busy code it is not.
import fs from "node:fs";

/** Milliseconds the main thread of `pid` has run on a CPU; null where /proc has no such file. */
export function mainThreadCpuMs(pid: number | undefined): number | null {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

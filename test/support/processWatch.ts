// Watching processes through Linux /proc: a kernel's resident memory over time, and the processes a
// test started (found by a marker in their command line) that are still alive.
import fs from "node:fs";

/** Resident set size of `pid` in KiB, or null once it is gone. */
export function rssKiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until `stop`, which returns the samples in KiB. */
export function sampleRss(pid: number, everyMs: number): { stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    const kib = rssKiB(pid);
    if (kib !== null) samples.push(kib);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

interface LiveProcess {
  pid: number;
  ppid: number;
  cmdline: string;
}

/** Every live (non-zombie) process on the machine, from /proc. */
function liveProcesses(): LiveProcess[] {
  const found: LiveProcess[] = [];
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      // Fields after the command name: state ppid ...
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" || state === "X") continue;
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\u0000", " ").trim();
      found.push({ pid: Number(p), ppid: Number(ppid), cmdline });
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

/** Live processes whose command line (arguments joined by spaces) contains `marker`. */
export function liveProcessesWith(marker: string): LiveProcess[] {
  return liveProcesses().filter((p) => p.cmdline.includes(marker));
}

/** Live child processes of `pid`. */
export function liveChildrenOf(pid: number): LiveProcess[] {
  return liveProcesses().filter((p) => p.ppid === pid);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

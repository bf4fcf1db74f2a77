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
  return { stop: () => (clearInterval(timer), take(), samples) };
}

/** Live (non-zombie) processes whose command line contains `marker` (arguments joined by NUL). */
export function liveProcessesWith(marker: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
      if (!cmdline.includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z" && state !== "X") found.push({ pid: Number(p), cmdline: cmdline.replaceAll("\u0000", " ").trim() });
    } catch { /* exited meanwhile */ }
  }
  return found;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

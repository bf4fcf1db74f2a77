// Waiting on a kernel process by its pid: a detached kernel is not this window's child (another
// client may have started it), so its end is seen by probing, not by an exit event.
import { setTimeout as sleep } from "node:timers/promises";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // it exists, owned by someone else
  }
}

/** True once the process is gone, false if it is still there after `timeoutMs`. */
export async function processGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

/** Waits for a kernel that was asked to shut down; SIGTERM after `graceMs`, SIGKILL after another. */
export async function stopProcess(pid: number, graceMs: number): Promise<void> {
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (await processGone(pid, graceMs)) return;
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone meanwhile
    }
  }
  await processGone(pid, graceMs);
}
